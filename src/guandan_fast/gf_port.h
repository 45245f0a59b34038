/* Portability layer of the compiled core: every compiler builtin, CPU
 * feature test, atomic and operating-system call the search uses, behind a
 * small macro or function, so that a build with GCC, clang or MSVC (Linux,
 * macOS, Windows) differs only here. Included by _core.pyx (cdef extern). */
#ifndef GF_PORT_H
#define GF_PORT_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* ---- bit counting and prefetch ------------------------------------------ */
#if defined(__GNUC__) || defined(__clang__)
#define gf_popcount(x) __builtin_popcount((unsigned int)(x))
#define gf_ctz(x) __builtin_ctz((unsigned int)(x))        /* x != 0 */
#define gf_ctzll(x) __builtin_ctzll((unsigned long long)(x))  /* x != 0 */
#define gf_prefetch(p) __builtin_prefetch((const void*)(p))
#elif defined(_MSC_VER)
#include <intrin.h>
static __inline int gf_popcount(unsigned int x) { return (int)__popcnt(x); }
static __inline int gf_ctz(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
static __inline int gf_ctzll(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#if defined(_M_X64) || defined(_M_IX86)
#include <xmmintrin.h>
#define gf_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
#define gf_prefetch(p) ((void)(p))
#endif
#else
static int gf_popcount(unsigned int x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static int gf_ctz(unsigned int x) { int n = 0; while (!(x & 1u)) { x >>= 1; n++; } return n; }
static int gf_ctzll(unsigned long long x) { int n = 0; while (!(x & 1ull)) { x >>= 1; n++; } return n; }
#define gf_prefetch(p) ((void)(p))
#endif

/* ---- parallel bit extract (PEXT) ------------------------------------------
 * The bits of x where m has a one, packed low: the BMI2 instruction where the
 * CPU has it and it is fast (Intel since Haswell, AMD since Zen 3; Zen 1 and
 * 2 run it in microcode, slowly). gf_use_pext is decided once, at import
 * (gf_pext_init); without it the caller packs by a loop (same result). */
static int gf_use_pext = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
__attribute__((target("bmi2"))) static uint64_t gf_pext_hw(uint64_t x, uint64_t m) {
    return __builtin_ia32_pext_di(x, m);
}
static void gf_pext_init(void) {
    unsigned int a, b, c, d, family;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("bmi2") || !__get_cpuid(1, &a, &b, &c, &d))
        return;
    family = (a >> 8) & 0xF;
    if (family == 0xF)
        family += (a >> 20) & 0xFF;
    gf_use_pext = !__builtin_cpu_is("amd") || family >= 0x19;
}
#else
static uint64_t gf_pext_hw(uint64_t x, uint64_t m) { (void)m; return x; }
static void gf_pext_init(void) { }
#endif

/* ---- monotonic clock (seconds) ------------------------------------------- */
#if defined(_WIN32)
#include <windows.h>
static double gf_now_seconds(void) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}
#else
static double gf_now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif

/* ---- large tables ----------------------------------------------------------
 * Memory for the transposition table and the other large tables read at
 * random: aligned to 2 MiB and, from 2 MiB up, asked to live in huge pages
 * where the system has them (Linux: with 4 KiB pages most random reads also
 * miss the TLB; measured: the search runs ~14% faster). Freed with
 * gf_big_free. */
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif
static void* gf_big_alloc(size_t n) {
#if defined(_WIN32)
    return malloc(n);
#else
    void* p = NULL;
    if (n < ((size_t)2 << 20))
        return malloc(n);
    if (posix_memalign(&p, (size_t)2 << 20, n) != 0)
        return NULL;
#if defined(MADV_HUGEPAGE)
    madvise(p, n, MADV_HUGEPAGE);   /* advice only: may be refused */
#endif
    return p;
#endif
}
#define gf_big_free(p) free(p)

/* ---- the abort flag of a search -------------------------------------------
 * Written by the search's own thread (a limit, an overflow, a signal) and by
 * other threads (EndgameSearch.stop / cancel / resume), read by the search at
 * every node. An atomic int: the search reads it with relaxed order (a plain
 * load on x86 and ARM: it carries no other data, so no ordering is needed,
 * only that every write is seen whole and eventually); cancel and resume are
 * compare-and-swap, so a limit the search reports (1) is never overwritten
 * by a cancellation (4) or cleared by a resume. */
#if defined(_MSC_VER) && !defined(__clang__)
typedef volatile long gf_flag;
#define gf_flag_load(p) (*(p))
#define gf_flag_store(p, v) ((void)_InterlockedExchange((p), (long)(v)))
static __inline int gf_flag_cas(gf_flag* p, int expected, int desired) {
    return _InterlockedCompareExchange(p, (long)desired, (long)expected) == (long)expected;
}
#else
#include <stdatomic.h>
typedef atomic_int gf_flag;
#define gf_flag_load(p) atomic_load_explicit((p), memory_order_relaxed)
#define gf_flag_store(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
static inline int gf_flag_cas(gf_flag* p, int expected, int desired) {
    return atomic_compare_exchange_strong_explicit(p, &expected, desired,
                                                   memory_order_relaxed, memory_order_relaxed);
}
#endif

#endif /* GF_PORT_H */
