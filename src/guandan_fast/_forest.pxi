# A regression forest (the distilled policy's model, bots/distilled.py):
# the sum of its trees' leaves for each row of a feature matrix (included
# by _core.pyx). The trees are flat arrays over all nodes: a node i is a
# leaf when left[i] < 0 (its value value[i]), else the row goes to left[i]
# when x[feature[i]] <= threshold[i], to right[i] otherwise; roots[t] is
# tree t's first node. The loader (bots/distilled.py, load_model) checks
# what this walk assumes: every index in range and every child after its
# parent, so each walk ends within the node count.


cdef inline double forest_row(const int* feature, const double* threshold, const int* left,
                              const int* right, const double* value, const int* roots,
                              int ntrees, const double* x) noexcept nogil:
    cdef double s = 0.0
    cdef int t, i
    for t in range(ntrees):
        i = roots[t]
        while left[i] >= 0:
            if x[feature[i]] <= threshold[i]:
                i = left[i]
            else:
                i = right[i]
        s += value[i]
    return s


def _forest_predict(const int[::1] feature, const double[::1] threshold, const int[::1] left,
                    const int[::1] right, const double[::1] value, const int[::1] roots,
                    const double[:, ::1] X, double base):
    """base + the sum of the trees' leaves for each row of X (GIL released);
    the arrays as checked by bots.distilled.load_model."""
    cdef Py_ssize_t n = X.shape[0], r
    cdef int ntrees = roots.shape[0]
    out = _np.empty(n, dtype=_np.float64)
    cdef double[::1] o = out
    if n == 0 or ntrees == 0:
        o[:] = base
        return out
    with nogil:
        for r in range(n):
            o[r] = base + forest_row(&feature[0], &threshold[0], &left[0], &right[0], &value[0],
                                     &roots[0], ntrees, &X[r, 0])
    return out
