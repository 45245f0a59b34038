# The transposition table of the endgame search (included by _core.pyx;
# see _state.pxi). Entries hold proven bounds [lo, hi] on a position's value
# for team 0, the work spent (log2 of the nodes) and the best move's hash.
#
# Soundness of the table bounds: an entry is written only with bounds the
# search proved for the position of its key (a fail-soft value >= beta is a
# lower bound, <= alpha an upper bound, strictly inside an exact value;
# search() narrows the entry's old bounds, it never widens them), and a key
# names a position up to what cannot change its value (_keys.pxi). A probe
# takes an entry only when the whole key matches (two words, see below), so
# a bound read is a bound of the node: cutting on it (lo >= beta, hi <= alpha,
# lo == hi) or narrowing the node's window to it cannot change a value. A
# 64-bit key collision between two different positions is the one
# unprotected case (probability about nodes / 2**64 per probe).

ctypedef struct TTEntry:
    # Two 64-bit words, so that threads sharing the table need no lock
    # (Hyatt and Mann's lockless hashing): data packs the bounds, the work
    # and the best move; kx = key ^ data. A probe takes an entry only when
    # kx ^ data equals its key, so an entry torn by two threads writing at
    # once (words from different writes) is never taken.
    uint64_t kx
    uint64_t data      # lo + 8 | (hi + 8) << 8 | work << 16 | best << 32


cdef inline uint64_t tt_pack(int lo, int hi, int work, uint32_t best) noexcept nogil:
    return (<uint64_t>(lo + 8) | (<uint64_t>(hi + 8) << 8) | (<uint64_t>work << 16)
            | (<uint64_t>best << 32))


cdef inline int tt_get(const TTEntry* e, uint64_t key, int* lo, int* hi, int* work,
                       uint32_t* best) noexcept nogil:
    """1 and the entry's fields when e holds key (read once: another thread
    may be writing it)."""
    cdef uint64_t d = (<volatile uint64_t*>&e.data)[0]
    cdef uint64_t kx = (<volatile uint64_t*>&e.kx)[0]
    if kx ^ d != key:
        return 0
    lo[0] = <int>(d & 0xFF) - 8
    hi[0] = <int>((d >> 8) & 0xFF) - 8
    work[0] = <int>((d >> 16) & 0xFF)
    best[0] = <uint32_t>(d >> 32)
    return 1


cdef inline int tt_work(const TTEntry* e) noexcept nogil:
    """The work of whatever e holds (0 when empty): replacement priority."""
    return <int>(((<volatile uint64_t*>&e.data)[0] >> 16) & 0xFF)


cdef inline void tt_put(TTEntry* e, uint64_t key, int lo, int hi, int work,
                        uint32_t best) noexcept nogil:
    cdef uint64_t d = tt_pack(lo, hi, work, best)
    (<volatile uint64_t*>&e.data)[0] = d
    (<volatile uint64_t*>&e.kx)[0] = key ^ d

