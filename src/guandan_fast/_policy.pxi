# The blind house policy and whole-deal rollouts with it (included by
# _core.pyx after _state.pxi and _decomp.pxi).
#
# The policy decides for one seat from a PView: what that seat may know and
# nothing else (its own hand, the level, the standing play with its owner
# and the passes since, each seat's card count, the finishing order, the
# cards it has not seen, and the cards it knows to be in another hand from
# the tribute exchange). No other hand is ever an input: the rollout driver
# builds each seat's PView from the public record of the deal (the cards
# played so far, the counts, the table) and that seat's own hand only.
#
# The plan of the hand is the exact minimum number of plays (c_min_plays,
# _decomp.pxi): a play "keeps the plan" when the hand after it needs one
# play fewer, i.e. the play is a part of some optimal decomposition; a play
# that leaves more breaks a structure. Plays nobody else can beat without a
# bomb ("sure" plays) are read from the unseen cards: the cards outside the
# seat's hand and the partner's known cards, by rank counts (with the
# unseen wilds filling gaps), so "sure" is never wrong in that direction.
#
# The rules, in order (each with its reason in docs/bots.md; the
# thresholds are the DEFs below):
#   1. a play that empties the hand is made;
#   2. leading: the partner with 1 or 2 cards and no opponent as short: the
#      lowest single or pair of that size (a free pass for it to go out);
#      else the plan: non-bombs that break no bomb of the hand
#      (pol_breaks_bomb) before those that do, each in order of lowness
#      (fewer wilds, lower rank key, long plays -- straights, tubes,
#      plates, full houses -- as if LONG_LEAD ranks lower, more cards), a
#      sure play first when the hand needs 2 plays or fewer, plays an
#      opponent may go out over (its count is the play's size and the play
#      is not sure) last and the highest of them first; the first that
#      keeps the plan is led (at most PTRIES looked at, else the one that
#      leaves fewest plays);
#   3. following the partner: the lowest sure non-bomb when the next
#      opponent may go out over the standing play; else, when the partner
#      holds more than SHED_CARDS cards and its play is low (pol_lowplay)
#      and not sure, the lowest natural non-bomb below an ace that keeps
#      the plan and breaks no bomb (shedding while the team keeps the
#      lead); else pass;
#   4. following an opponent: the lowest non-bomb (fewest wilds, lowest
#      rank key) that breaks no bomb and keeps the plan; one play more is
#      allowed when the owner holds 15 or fewer cards and one more when
#      the partner has already passed, any when the owner holds 4 or
#      fewer; wilds only when the owner holds 6 or fewer; else the
#      smallest bomb (fewest wilds) when the owner holds 5 or fewer cards,
#      or the hand holds two bombs or more and the owner 20 cards or fewer,
#      or the owner holds 15 or fewer and its play is big (pol_big) or
#      sure, or the bomb keeps the plan (it is a part of an optimal
#      decomposition: spending it costs no play) and holds no wild (wilds:
#      against an owner with 10 or fewer), or the hand is one play after
#      the bomb; else pass.
# Nothing here touches a Python object.

from libc.string cimport memcmp

# the min-plays cache: 2^16 entries (1.5 MB a context). The search plays
# every candidate on the same deals, so the same hands come back; at 2^12
# they evicted each other (docs/performance.md: 1.35 times the rollouts in
# 0.2 s on opening leads)
DEF PMP_BITS = 16
DEF PTRIES = 16
DEF PBIG = 1 << 28
# the thresholds (docs/bots.md: the first ones measured against greedy in
# self-play, the last four against the public 2020 rule bots)
DEF LEAD_SURE_PLAYS = 2   # a hand of this many plays or fewer leads a sure play first
DEF THREAT_CARDS = 4      # an owner with this many cards or fewer is about to go out
DEF SLACK_CARDS = 15      # against an owner this short a follow may cost one play
DEF WILD_CARDS = 6        # ... this short, a follow may use wilds
DEF BOMB_CARDS = 5        # a bomb stops an owner this short
DEF SPARE_BOMB_CARDS = 20 # ... or, with two bombs or more, any play of an owner this short
DEF BIG_BOMB_CARDS = 15   # ... or a big play of an owner this short
DEF PLAN_BOMB_WILD_CARDS = 10  # a bomb of the plan may hold wilds against an owner this short
DEF LONG_LEAD = 6         # long plays lead as if this many ranks lower
DEF CONTROL_KEY = 12      # control cards: rank key ace (12) or above
DEF SHED_CARDS = 4        # shed over the partner's low play while it holds more than this
DEF BREAK_LEAD = 1 << 20  # a lead that breaks a bomb of the hand: after all others


ctypedef struct PView:
    u8 hand[54]        # the seat's own cards
    u8 unseen[54]      # two decks minus the seat's hand minus the cards played
    u8 known[4][54]    # cards known to be in another seat's hand (a subset of unseen)
    int me
    int lv
    int flags
    int ncards[4]
    int owner          # the owner of the standing play, -1 on a free lead
    int passes
    CPlay table
    int nfin
    int fin[4]


ctypedef struct PMPEntry:
    uint64_t a         # the hand's natural counts by rank (4 bits each, pol_mp_entry)
    uint64_t b         # its wilds and the rule flags
    int mp


ctypedef struct PCtx:
    DecompWork* dws
    CPlay* buf         # MAXPLAY plays
    int* key           # MAXPLAY scores
    PMPEntry* mpc      # min plays per rank counts, direct-mapped, exact keys
    Snap snap[4]       # per seat: the DP layers of its hand as last seen
    u8 snap_hand[4][54]
    int snap_rules[4]  # pol_rules of the layers (0: none)
    int snap_mp[4]     # the minimum plays of that hand
    HandInfo hinfo[4]  # per seat: the summary of its hand as last seen
    u8 hinfo_hand[4][54]
    int hinfo_rules[4] # pol_rules of the summary (0: none)
    long long plies    # rollout statistics: moves made,
    long long mp_calls # min-plays asked,
    long long mp_dp    # ... and computed (cache misses)


ctypedef struct PUnseen:
    # what the cards the opponents may hold can form (by ranks)
    int nat[15]        # natural cards per rank (the wild slot apart)
    int w              # wilds
    int bomb           # the strongest bomb they can form: class * 32 + key, -1 none


cdef int pctx_init(PCtx* P) noexcept nogil:
    P.dws = new_decomp_work()
    P.buf = <CPlay*>malloc(MAXPLAY * sizeof(CPlay))
    P.key = <int*>malloc(MAXPLAY * sizeof(int))
    P.mpc = <PMPEntry*>calloc(1 << PMP_BITS, sizeof(PMPEntry))
    cdef int s
    for s in range(4):
        P.snap_rules[s] = 0
        P.hinfo_rules[s] = 0
        if snap_alloc(&P.snap[s], 16384) < 0:
            return -1
    P.plies = 0
    P.mp_calls = 0
    P.mp_dp = 0
    if P.dws == NULL or P.buf == NULL or P.key == NULL or P.mpc == NULL:
        return -1
    return 0


cdef void pctx_free(PCtx* P) noexcept nogil:
    cdef int s
    for s in range(4):
        snap_free(&P.snap[s])
    free(P.dws)
    free(P.buf)
    free(P.key)
    free(P.mpc)
    P.dws = NULL
    P.buf = NULL
    P.key = NULL
    P.mpc = NULL


cdef inline PMPEntry* pol_mp_entry(PCtx* P, const u8* nat, int w, int flags,
                                   uint64_t* a, uint64_t* b) noexcept nogil:
    """The cache slot of a hand by its rank counts and wilds (all that its
    minimum plays depend on, see dp_min_plays), its exact key in a, b."""
    cdef int i
    a[0] = 0
    for i in range(15):
        a[0] |= (<uint64_t>nat[i]) << (4 * i)
    b[0] = <uint64_t>(w * 4 + flags + 1)
    P.mp_calls += 1
    return &P.mpc[smix(a[0] ^ smix(b[0])) & ((1 << PMP_BITS) - 1)]


cdef inline int pol_rules(const PView* v) noexcept nogil:
    """The key of the view's rules for the per-seat caches (never 0)."""
    return v.lv * 4 + v.flags + 1


cdef inline bint pol_kept(const u8* hand, int rules, const PView* v) noexcept nogil:
    """Whether a per-seat cache entry made for ``hand`` under ``rules``
    (0: none) holds for the seat's hand and rules in v."""
    return rules == pol_rules(v) and memcmp(hand, v.hand, 54) == 0


cdef int pol_snap(PCtx* P, const PView* v) noexcept nogil:
    """The DP layers of the seat's hand in P.snap[v.me] (kept while the
    hand is the same): its minimum plays, or -1 when they could not be
    kept."""
    cdef u8 nat0[15]
    cdef int w0, r, me = v.me
    if pol_kept(P.snap_hand[me], P.snap_rules[me], v):
        return P.snap_mp[me]
    P.snap_rules[me] = 0
    nat_counts(v.hand, v.lv, nat0, &w0)
    r = dp_min_plays(nat0, w0, v.flags, P.dws, &P.snap[me], NULL, 0)
    if r < 0 or not P.snap[me].ok:
        return -1
    P.snap_rules[me] = pol_rules(v)
    P.snap_mp[me] = r
    memcpy(P.snap_hand[me], v.hand, 54)
    return r


cdef int pol_mp0(PCtx* P, const PView* v) noexcept nogil:
    """Minimum plays of the seat's hand (its layers kept for the plays)."""
    cdef uint64_t a, b
    cdef int r, w
    cdef u8 nat[15]
    cdef PMPEntry* e
    nat_counts(v.hand, v.lv, nat, &w)
    e = pol_mp_entry(P, nat, w, v.flags, &a, &b)
    if e.a == a and e.b == b:
        return e.mp
    P.mp_dp += 1
    r = pol_snap(P, v)
    if r < 0:
        r = c_min_plays(v.hand, v.lv, v.flags, P.dws)
    if r < 0:
        r = 27
    e.a = a
    e.b = b
    e.mp = r
    return r


cdef int pol_mp_after(PCtx* P, const PView* v, const CPlay* p) noexcept nogil:
    """Minimum plays of the seat's hand after p. A play that leaves the
    wilds and the aces resumes the DP of the whole hand (kept per seat, as
    min_plays_after does for all the plays of one hand) at the lowest rank
    it changes: the layers below it are those of the whole hand."""
    cdef u8 cnt[54]
    cdef u8 nat[15]
    cdef u8 nat0[15]
    cdef int i, w, w0, start, r, me = v.me
    cdef uint64_t a, b
    cdef PMPEntry* e
    memcpy(cnt, v.hand, 54)
    for i in range(p.size):
        cnt[p.cards[i]] -= 1
    nat_counts(cnt, v.lv, nat, &w)
    e = pol_mp_entry(P, nat, w, v.flags, &a, &b)
    if e.a == a and e.b == b:
        return e.mp
    P.mp_dp += 1
    nat_counts(v.hand, v.lv, nat0, &w0)
    start = 0
    if w == w0 and nat[12] == nat0[12]:
        start = 14                       # only jokers changed: the last layer
        for i in range(12):
            if nat[i] != nat0[i]:
                start = i + 1            # line position of rank i
                break
        if pol_snap(P, v) < 0:
            start = 0
    if start:
        r = dp_min_plays(nat, w, v.flags, P.dws, NULL, &P.snap[me], start)
    else:
        r = dp_min_plays(nat, w, v.flags, P.dws, NULL, NULL, 0)
    if r < 0:
        r = 27
    e.a = a
    e.b = b
    e.mp = r
    return r


cdef void pol_unseen(const PView* v, PUnseen* u) noexcept nogil:
    """The opponents' possible cards: unseen minus the partner's known cards."""
    cdef u8 c[54]
    cdef int i, r, s, st, k, miss, m, strength, wid = SUIT_H * 13 + v.lv
    cdef int partner = v.me ^ 2
    for i in range(54):
        c[i] = v.unseen[i] - v.known[partner][i]
    memset(u, 0, sizeof(PUnseen))
    u.w = c[wid]
    for i in range(52):
        if i != wid:
            u.nat[i % 13] += c[i]
    u.nat[RB] = c[52]
    u.nat[RR] = c[53]
    u.bomb = -1
    for r in range(13):
        m = u.nat[r] + u.w
        if m >= 4:
            strength = (m - 3 if m <= 5 else m - 2) * 32 + order_of(r, v.lv)
            if strength > u.bomb:
                u.bomb = strength
    if u.nat[RB] == 2 and u.nat[RR] == 2:
        u.bomb = 9 * 32 + order_of(RR, v.lv)
    if u.bomb < 4 * 32:
        # straight flushes (class 3) matter only below the six-card bombs
        for s in range(4):
            for st in range(10):
                miss = 0
                for k in range(5):
                    r = line_rank(st + k)
                    if s * 13 + r == wid or c[s * 13 + r] == 0:
                        miss += 1
                if miss <= u.w and miss < 5:
                    strength = 3 * 32 + line_rank(st + 4)
                    if strength > u.bomb:
                        u.bomb = strength


cdef int pol_beatable(const PUnseen* u, const CPlay* p, int lv) noexcept nogil:
    """Could the opponents' possible cards form a non-bomb beating p (p not
    a bomb)? By ranks only, the wilds filling any gap: never 0 when some
    deal of those cards beats p."""
    cdef int key = rank_key(p, lv), r, st, k, need, o
    cdef int t = p.type
    if t == T_SINGLE:
        for r in range(15):
            if u.nat[r] and order_of(r, lv) > key:
                return 1
        return u.w > 0 and order_of(lv, lv) > key
    if t == T_PAIR or t == T_TRIPLE or t == T_FULL_HOUSE:
        need = 2 if t == T_PAIR else 3
        for r in range(15):
            o = order_of(r, lv)
            if o <= key:
                continue
            if r >= 13:
                if t == T_PAIR and u.nat[r] >= 2:
                    return 1
            elif u.nat[r] + u.w >= need:
                return 1
        return 0
    if t == T_STRAIGHT:
        for st in range(10):
            if line_rank(st + 4) <= key:
                continue
            need = 0
            for k in range(5):
                if u.nat[line_rank(st + k)] == 0:
                    need += 1
            if need <= u.w:
                return 1
        return 0
    if t == T_TUBE:
        for st in range(12):
            if line_rank(st + 2) <= key:
                continue
            need = 0
            for k in range(3):
                if u.nat[line_rank(st + k)] < 2:
                    need += 2 - u.nat[line_rank(st + k)]
            if need <= u.w:
                return 1
        return 0
    if t == T_PLATE:
        for st in range(13):
            if line_rank(st + 1) <= key:
                continue
            need = 0
            for k in range(2):
                if u.nat[line_rank(st + k)] < 3:
                    need += 3 - u.nat[line_rank(st + k)]
            if need <= u.w:
                return 1
        return 0
    return 1


cdef inline int pol_sure(const PUnseen* u, const CPlay* p, int lv) noexcept nogil:
    """No non-bomb of the opponents' possible cards beats p."""
    if bomb_class(p):
        return u.bomb < play_strength(p, lv)
    return not pol_beatable(u, p, lv)


cdef int pol_opp_out_over(const PView* v, const PUnseen* u, const CPlay* p,
                          int seat) noexcept nogil:
    """Might opponent ``seat`` go out at once over p? (It holds exactly as
    many cards as p and p is not sure.)"""
    if seat < 0 or v.ncards[seat] == 0 or v.ncards[seat] != p.size:
        return 0
    if bomb_class(p):
        return 0
    return pol_beatable(u, p, v.lv)


cdef inline int pol_bomb_rank(const PView* v, int r) noexcept nogil:
    """The hand holds a bomb of rank r (2..A) without wilds: 4 or more
    natural cards of it (the wild not counted)."""
    cdef int wid = SUIT_H * 13 + v.lv
    return v.hand[r] + v.hand[13 + r] + v.hand[26 + r] + v.hand[39 + r] \
        - (v.hand[wid] if r == v.lv else 0) >= 4


cdef inline int pol_four_jokers(const PView* v) noexcept nogil:
    return v.hand[52] == 2 and v.hand[53] == 2


cdef int pol_bombs_held(const PView* v) noexcept nogil:
    """Bombs the hand holds without wilds: ranks with 4 or more natural
    cards, and the four jokers."""
    cdef int r, n = 0
    for r in range(13):
        if pol_bomb_rank(v, r):
            n += 1
    if pol_four_jokers(v):
        n += 1
    return n


cdef int pol_breaks_bomb(const PView* v, const CPlay* p) noexcept nogil:
    """A non-bomb p takes a card from a bomb of the hand (pol_bombs_held):
    a natural card of a rank the hand holds 4 or more natural cards of, or
    a joker while the hand holds all four. The public rule bots set their
    bombs aside before they plan anything else; measured, keeping ours
    whole (such plays after all others when leading, never as a follow)
    gained about 0.2 levels a deal against them on fresh seeds
    (docs/bots.md)."""
    cdef int j, c, wid = SUIT_H * 13 + v.lv
    for j in range(p.size):
        c = p.cards[j]
        if c >= 52:
            if pol_four_jokers(v):
                return 1
        elif c != wid and pol_bomb_rank(v, c % 13):
            return 1
    return 0


cdef int pol_lead(PCtx* P, const PView* v, const PUnseen* u, CPlay* buf, int n,
                  CPlay* out) noexcept nogil:
    cdef int me = v.me, partner = me ^ 2, lv = v.lv
    cdef int o1 = (me + 1) & 3, o3 = (me + 3) & 3
    cdef int i, k, best, mp0, mp, bmp, tries, nb = 0, pc
    cdef int oppmin = 99
    cdef int* key = P.key
    if v.ncards[o1] and v.ncards[o1] < oppmin:
        oppmin = v.ncards[o1]
    if v.ncards[o3] and v.ncards[o3] < oppmin:
        oppmin = v.ncards[o3]
    # the partner about to go out, no opponent as short: feed it the lowest
    # single or pair
    pc = v.ncards[partner]
    if (pc == 1 or pc == 2) and oppmin > pc:
        best = -1
        for i in range(n):
            if buf[i].size == pc and buf[i].nwild == 0 and bomb_class(&buf[i]) == 0 \
                    and (best < 0 or rank_key(&buf[i], lv) < rank_key(&buf[best], lv)):
                best = i
        if best >= 0:
            out[0] = buf[best]
            return 0
    mp0 = pol_mp0(P, v)
    for i in range(n):
        if bomb_class(&buf[i]):
            key[i] = PBIG
            continue
        nb += 1
        # lowness: fewer wilds, lower rank key, more cards
        k = (buf[i].nwild * 32 + 16 + rank_key(&buf[i], lv)) * 16 + (15 - buf[i].size)
        if buf[i].type == T_STRAIGHT or buf[i].type == T_TUBE or \
                buf[i].type == T_PLATE or buf[i].type == T_FULL_HOUSE:
            # long plays first: as if LONG_LEAD ranks lower
            k -= LONG_LEAD * 16
        if pol_opp_out_over(v, u, &buf[i], o1) or pol_opp_out_over(v, u, &buf[i], o3):
            # an opponent may go out over it: after everything else, and
            # among these the highest first
            k = (1 << 24) + (buf[i].nwild * 32 + 31 - rank_key(&buf[i], lv)) * 16
        elif mp0 <= LEAD_SURE_PLAYS and pol_sure(u, &buf[i], lv):
            # the end of the hand: the sure play first, the rest after it
            k -= 1 << 16
        if pol_breaks_bomb(v, &buf[i]):
            # a bomb of the hand stays whole: after every play that keeps it
            k += BREAK_LEAD
        key[i] = k
    if nb == 0:
        # (never reached: every hand holds a single; kept as a guard)
        best = 0
        for i in range(1, n):
            if play_strength(&buf[i], lv) < play_strength(&buf[best], lv):
                best = i
        out[0] = buf[best]
        return 0
    # the first in that order that keeps the plan (else the best seen)
    best = -1
    bmp = 1 << 30
    for tries in range(min(nb, PTRIES)):
        k = -1
        for i in range(n):
            if key[i] < PBIG and (k < 0 or key[i] < key[k]):
                k = i
        key[k] = PBIG + 1
        mp = pol_mp_after(P, v, &buf[k])
        if mp < bmp:
            bmp = mp
            best = k
        if mp <= mp0 - 1:
            break
    out[0] = buf[best]
    return 0


cdef int pol_big(const CPlay* p, int lv) noexcept nogil:
    """A play near the top of its type (what the public bots bomb)."""
    cdef int t = p.type, k = rank_key(p, lv)
    if t == T_STRAIGHT:
        return 1
    if t == T_SINGLE:
        return k >= 13
    if t == T_PAIR:
        return k >= 12
    if t == T_TRIPLE or t == T_FULL_HOUSE:
        return k >= 10
    if t == T_TUBE or t == T_PLATE:
        return k >= 8
    return 0


cdef int pol_lowplay(const CPlay* p, int lv) noexcept nogil:
    """A partner's play low enough to shed over."""
    cdef int t = p.type, k = rank_key(p, lv)
    if t == T_SINGLE:
        return k < 12
    if t == T_PAIR or t == T_TRIPLE or t == T_FULL_HOUSE:
        return k < 11
    if t == T_TUBE or t == T_PLATE:
        return k < 8
    if t == T_STRAIGHT:
        return k < 9
    return 0


cdef int pol_follow(PCtx* P, const PView* v, const PUnseen* u, CPlay* buf, int n,
                    CPlay* out) noexcept nogil:
    cdef int me = v.me, partner = me ^ 2, lv = v.lv, owner = v.owner
    cdef int o1 = (me + 1) & 3
    cdef int i, j, best, k, mp0, mp, bmp, slack, oc, threat, partner_after, plan, runs_out, nc = 0
    cdef int* key = P.key
    if owner == partner:
        # the partner's play stands: pass, unless the next opponent may go
        # out over it; then the lowest sure non-bomb
        if pol_opp_out_over(v, u, &v.table, o1):
            best = -1
            for i in range(n):
                if bomb_class(&buf[i]) == 0 and pol_sure(u, &buf[i], lv) and \
                        (best < 0 or rank_key(&buf[i], lv) < rank_key(&buf[best], lv)):
                    best = i
            if best >= 0:
                out[0] = buf[best]
                return 0
        if v.ncards[partner] > SHED_CARDS and pol_lowplay(&v.table, lv) \
                and not pol_sure(u, &v.table, lv):
            # the partner's play is low and far from out: shed the lowest
            # natural plan play below an ace over it (the team keeps the
            # lead, the hand one play shorter)
            mp0 = pol_mp0(P, v)
            best = -1
            for i in range(n):
                if bomb_class(&buf[i]) == 0 and buf[i].nwild == 0 and \
                        rank_key(&buf[i], lv) < CONTROL_KEY and \
                        (best < 0 or rank_key(&buf[i], lv) < rank_key(&buf[best], lv)):
                    if not pol_breaks_bomb(v, &buf[i]) and pol_mp_after(P, v, &buf[i]) <= mp0 - 1:
                        best = i
            if best >= 0:
                out[0] = buf[best]
                return 0
        out[0].size = 0
        return 0
    oc = v.ncards[owner]
    threat = oc <= THREAT_CARDS
    # the partner acts after me in this round (it has not passed on it yet)
    partner_after = v.ncards[partner] > 0 and owner != o1
    mp0 = pol_mp0(P, v)
    slack = 0
    if oc <= SLACK_CARDS:
        slack += 1
    if not partner_after:
        slack += 1
    if threat:
        slack = 100
    # the candidates: non-bombs that break no bomb of the hand; wilds only
    # against a short owner
    for i in range(n):
        if bomb_class(&buf[i]) or (buf[i].nwild and oc > WILD_CARDS) or \
                pol_breaks_bomb(v, &buf[i]):
            key[i] = PBIG
        else:
            key[i] = buf[i].nwild * 64 + rank_key(&buf[i], lv)
            nc += 1
    # in order of (wilds, rank key), the first that keeps the plan is the
    # best (no play leaves fewer than mp0 - 1 plays: the hand is the rest
    # and the play)
    best = -1
    bmp = 1 << 30
    for j in range(nc):
        k = -1
        for i in range(n):
            if key[i] < PBIG and (k < 0 or key[i] < key[k]):
                k = i
        key[k] = PBIG
        mp = pol_mp_after(P, v, &buf[k])
        if mp < bmp:
            bmp = mp
            best = k
        if mp <= mp0 - 1:
            break
    if best >= 0 and bmp <= mp0 - 1 + slack:
        out[0] = buf[best]
        return 0
    # the smallest bomb (fewest wilds), when it stops an owner about to go
    # out, the hand holds bombs to spare, it takes a big or sure play from
    # an owner with 15 cards or fewer, it keeps the plan, or it runs the
    # hand out
    best = -1
    for i in range(n):
        if bomb_class(&buf[i]) and (best < 0 or play_strength(&buf[i], lv) * 4 + buf[i].nwild
                                    < play_strength(&buf[best], lv) * 4 + buf[best].nwild):
            best = i
    if best >= 0:
        # (the cheap tests first; then the plays left after the bomb, once,
        # when a test asks for them: the plan's, or running out, which one
        # play of at most 10 cards can do only to a hand of 10 or fewer)
        if oc <= BOMB_CARDS or (oc <= SPARE_BOMB_CARDS and pol_bombs_held(v) >= 2) or \
                (oc <= BIG_BOMB_CARDS and (pol_big(&v.table, lv) or pol_sure(u, &v.table, lv))):
            out[0] = buf[best]
            return 0
        plan = buf[best].nwild == 0 or oc <= PLAN_BOMB_WILD_CARDS
        runs_out = v.ncards[me] - buf[best].size <= 10
        if plan or runs_out:
            mp = pol_mp_after(P, v, &buf[best])
            if (plan and mp <= mp0 - 1) or (runs_out and mp <= 1):
                out[0] = buf[best]
                return 0
    out[0].size = 0
    return 0


cdef const HandInfo* pol_hand_info(PCtx* P, const PView* v) noexcept nogil:
    """The summary of the seat's hand (hand_info), kept per seat while its
    hand and the rules are the same: a seat that passes or follows asks
    for the same hand again."""
    cdef int me = v.me
    if not pol_kept(P.hinfo_hand[me], P.hinfo_rules[me], v):
        hand_info(v.hand, v.lv, v.flags, &P.hinfo[me])
        memcpy(P.hinfo_hand[me], v.hand, 54)
        P.hinfo_rules[me] = pol_rules(v)
    return &P.hinfo[me]


cdef int pol_decide(PCtx* P, const PView* v, CPlay* out) noexcept nogil:
    """The policy's move for seat v.me (to act, holding cards) into out
    (size 0: pass). -1 on a buffer overflow."""
    cdef int n, i
    cdef PUnseen u
    cdef CPlay* buf = P.buf
    cdef const HandInfo* h = pol_hand_info(P, v)
    memset(out, 0, sizeof(CPlay))
    if v.owner >= 0:
        n = beating_plays_h(h, &v.table, buf, MAXPLAY)
    else:
        n = enumerate_plays_h(h, ALL_TYPES, buf, MAXPLAY)
    if n < 0:
        return -1
    if n == 0:
        return 0
    for i in range(n):
        if buf[i].size == v.ncards[v.me]:
            out[0] = buf[i]
            return 0
    pol_unseen(v, &u)
    if v.owner >= 0:
        return pol_follow(P, v, &u, buf, n, out)
    return pol_lead(P, v, &u, buf, n, out)


# ----------------------------------------------------------------------------
# Rollouts: the policy in every seat to the end of the deal
# ----------------------------------------------------------------------------

cdef void pol_view_of(const SState* st, const u8* played, PView* v) noexcept nogil:
    """The PView of the seat to act: its own hand and the public record
    (played cards, counts, table, finishing order). No other hand is read."""
    cdef int me = st.turn, i
    memcpy(v.hand, st.hand[me], 54)
    for i in range(54):
        v.unseen[i] = <u8>(2 - played[i] - st.hand[me][i])
    v.me = me
    v.lv = st.lv
    for i in range(4):
        v.ncards[i] = st.ncards[i]
        v.fin[i] = st.fin[i]
    v.nfin = st.nfin
    v.owner = st.owner
    v.passes = st.passes
    v.table = st.table


cdef int pol_playout(PCtx* P, SState* st, u8* played, int flags, PView* v,
                     int* value) noexcept nogil:
    """Play the policy in every seat from st to the end of the deal; team
    0's result in value. -1 on a buffer overflow."""
    cdef CPlay mv
    cdef int i
    v.flags = flags
    memset(v.known, 0, sizeof(v.known))
    while not st_team_out(st):
        pol_view_of(st, played, v)
        if pol_decide(P, v, &mv) < 0:
            return -1
        for i in range(mv.size):
            played[mv.cards[i]] += 1
        st_apply(st, &mv)
        P.plies += 1
    value[0] = st_final_value(st)
    return 0


cdef void pol_state(SState* st, const u8* hands, int lv, int turn, const CPlay* table,
                    int owner, int passes, const int* fin, int nfin) noexcept nogil:
    cdef int s, c
    memset(st, 0, sizeof(SState))
    for s in range(4):
        for c in range(54):
            st.hand[s][c] = hands[s * 54 + c]
            st.ncards[s] += hands[s * 54 + c]
    st.lv = lv
    st.turn = turn
    st.owner = owner
    st.passes = passes
    if owner >= 0:
        st.table = table[0]
    st.nfin = nfin
    for s in range(nfin):
        st.fin[s] = fin[s]


cdef class _PolicyCore:
    """A policy context (its caches) for calls from Python, one at a time."""
    cdef PCtx P
    cdef PView v

    def __cinit__(self):
        memset(&self.P, 0, sizeof(PCtx))
        if pctx_init(&self.P) < 0:
            pctx_free(&self.P)
            raise MemoryError()

    def __dealloc__(self):
        pctx_free(&self.P)

    def choose(self, const u8[::1] hand, const u8[::1] unseen, const u8[:, ::1] known,
               int me, int lv, int flags, counts, Play table, int owner, int passes):
        """The policy's play for seat ``me`` (Play, or None to pass). The
        arguments are the seat's view only (checked by the caller,
        bots/policy.py)."""
        cdef CPlay mv
        cdef int i, rc
        memcpy(self.v.hand, &hand[0], 54)
        memcpy(self.v.unseen, &unseen[0], 54)
        memcpy(self.v.known, &known[0, 0], 4 * 54)
        self.v.me = me
        self.v.lv = lv
        self.v.flags = flags
        for i in range(4):
            self.v.ncards[i] = counts[i]
        self.v.owner = owner if table is not None else -1
        self.v.passes = passes
        if table is not None:
            self.v.table = table.p
        with nogil:
            rc = pol_decide(&self.P, &self.v, &mv)
        if rc < 0:
            raise RuntimeError("play buffer overflow")
        return make_play(&mv, lv) if mv.size else None

    def rollouts(self, const u8[:, :, ::1] deals, const u8[::1] played, int lv, int flags,
                 int turn, Play table, int owner, int passes, finished, moves=None):
        """Whole-deal rollouts with the policy in every seat, GIL released.
        ``deals``: (N, 4, 54) hands; ``played``: the 54 counts of the cards
        played so far (public); the rest is the position. Without
        ``moves``: an int8 array of team 0's results, one per deal; with
        ``moves`` (a list of Play or None for a pass): an (len(moves), N)
        array, each move made first by the seat to act, then the policy."""
        cdef int nd = deals.shape[0], nm, i, j, c, rc = 0, nfin = len(finished), val = 0
        cdef int has_moves = moves is not None
        cdef int own = owner if table is not None else -1
        cdef int fin[4]
        cdef CPlay tp
        cdef CPlay* mv = NULL
        cdef SState st
        cdef u8 pl[54]
        memset(&tp, 0, sizeof(CPlay))
        if table is not None:
            tp = table.p
        for i in range(nfin):
            fin[i] = finished[i]
        nm = 1 if moves is None else len(moves)
        out = _np.zeros((nm, nd), dtype=_np.int8)
        cdef signed char[:, ::1] res = out
        mv = <CPlay*>calloc(nm, sizeof(CPlay))
        if mv == NULL:
            raise MemoryError()
        try:
            if moves is not None:
                for j in range(nm):
                    if moves[j] is not None:
                        mv[j] = (<Play>moves[j]).p
            with nogil:
                for j in range(nm):
                    for i in range(nd):
                        pol_state(&st, &deals[i, 0, 0], lv, turn, &tp, own, passes,
                                  fin, nfin)
                        memcpy(pl, &played[0], 54)
                        if has_moves:
                            for c in range(mv[j].size):
                                pl[mv[j].cards[c]] += 1
                            st_apply(&st, &mv[j])
                        if st_team_out(&st):
                            val = st_final_value(&st)
                        elif pol_playout(&self.P, &st, pl, flags, &self.v, &val) < 0:
                            rc = -1
                            break
                        res[j, i] = <signed char>val
                    if rc < 0:
                        break
            if rc < 0:
                raise RuntimeError("play buffer overflow")
            return out if moves is not None else out[0]
        finally:
            free(mv)

    def decide_in_deals(self, const u8[:, :, ::1] deals, const u8[::1] played, int lv,
                        int flags, int turn, Play table, int owner, int passes, finished,
                        int peek=-1):
        """The first decision of a rollout from each deal (Play or None), the
        seat to act's view built by the rollout driver (pol_view_of). For
        the tests of blindness: ``peek`` >= 0 is a test hook that also puts
        seat peek's real hand among the known cards, the variant that reads
        a hidden hand."""
        cdef int nd = deals.shape[0], i, nfin = len(finished), rc = 0
        cdef int own = owner if table is not None else -1
        cdef int fin[4]
        cdef CPlay tp
        cdef CPlay mv
        cdef SState st
        memset(&tp, 0, sizeof(CPlay))
        if table is not None:
            tp = table.p
        for i in range(nfin):
            fin[i] = finished[i]
        out = []
        for i in range(nd):
            pol_state(&st, &deals[i, 0, 0], lv, turn, &tp, own, passes, fin, nfin)
            pol_view_of(&st, &played[0], &self.v)
            self.v.flags = flags
            memset(self.v.known, 0, sizeof(self.v.known))
            if 0 <= peek <= 3 and peek != turn:
                memcpy(self.v.known[peek], st.hand[peek], 54)
            with nogil:
                rc = pol_decide(&self.P, &self.v, &mv)
            if rc < 0:
                raise RuntimeError("play buffer overflow")
            out.append(make_play(&mv, lv) if mv.size else None)
        return out

    @property
    def plies(self):
        """Moves made by the policy in rollouts so far."""
        return self.P.plies

    @property
    def stats(self):
        """(moves made in rollouts, min-plays asked, min-plays computed)."""
        return self.P.plies, self.P.mp_calls, self.P.mp_dp


