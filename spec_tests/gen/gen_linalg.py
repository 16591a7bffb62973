"""Writes spec_tests/linalg/dot.hlotest (dot and DotGeneral), scaled-dot and
ragged-dot. Expected values: exact integer arithmetic in Python/numpy on
data chosen so that every input and result is a value of the element type
(the comparisons are then exact)."""
import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_linalg.py"

DOT = "Dot :: The operation performs sum of products over the second dimension of `lhs` (or the first if it has 1 dimension) and the first dimension of `rhs`."
DOT_TABLE = "Dot :: matrix-matrix multiplication"
DOT_SAME = "Dot :: The contracted dimensions of `lhs` and `rhs` must be of the same size."
DG = "DotGeneral :: DotGeneral performs the sum of products over contracting dimensions specified in `dimension_numbers`."
DG_EX1 = "DotGeneral :: Example with contracting dimension numbers:"
DG_EX2 = "DotGeneral :: Example with batch dimension numbers (batch size 2, 2x2 matrices):"
DG_CSIZE = "DotGeneral :: Associated contracting dimension numbers from the `lhs` and `rhs` do not need to be the same but must have the same dimension sizes."
DG_BSIZE = "DotGeneral :: Associated batch dimension numbers from the `lhs` and `rhs` must have the same dimension sizes."
DG_ORDER = "DotGeneral :: It follows that the resulting dimension number starts with the batch dimension, then the `lhs` non-contracting/non-batch dimension, and finally the `rhs` non-contracting/non-batch dimension."
DG_BATCH = "DotGeneral :: batch matmul"
DG_PREF = "DotGeneral :: `preferred_element_type` is a scalar element of higher/lower precision output types used for accumulation."
DG_PREC = "DotGeneral :: Values may be `DEFAULT`, `HIGH`, `HIGHEST`."


def dg(lhs, rhs, lc, rc, lb=(), rb=()):
    """DotGeneral in exact Python arithmetic (object arrays)."""
    lhs = np.asarray(lhs, dtype=object)
    rhs = np.asarray(rhs, dtype=object)
    lfree = [d for d in range(lhs.ndim) if d not in lc and d not in lb]
    rfree = [d for d in range(rhs.ndim) if d not in rc and d not in rb]
    l = np.transpose(lhs, list(lb) + lfree + list(lc))
    r = np.transpose(rhs, list(rb) + list(rc) + rfree)
    bshape = [lhs.shape[d] for d in lb]
    m = [lhs.shape[d] for d in lfree]
    n = [rhs.shape[d] for d in rfree]
    k = int(np.prod([lhs.shape[d] for d in lc])) if lc else 1
    B, M, N = int(np.prod(bshape)), int(np.prod(m)), int(np.prod(n))
    l = l.reshape(B, M, k)
    r = r.reshape(B, k, N)
    out = np.empty((B, M, N), dtype=object)
    for b in range(B):
        for i in range(M):
            for j in range(N):
                s = 0
                for x in range(k):
                    s = s + l[b, i, x] * r[b, x, j]
                out[b, i, j] = s
    return out.reshape(bshape + m + n)


def dims_attr(lc, rc, lb=(), rb=()):
    parts = []
    if lb:
        parts.append("lhs_batch_dims={%s}" % ",".join(map(str, lb)))
    parts.append("lhs_contracting_dims={%s}" % ",".join(map(str, lc)))
    if rb:
        parts.append("rhs_batch_dims={%s}" % ",".join(map(str, rb)))
    parts.append("rhs_contracting_dims={%s}" % ",".join(map(str, rc)))
    return ", ".join(parts)


def dot_case(name, spec, source, t, lhs, rhs, lc, rc, lb=(), rb=(),
             out_t=None, extra_attr="", tolerance="exact", note=None,
             expect=None):
    out_t = out_t or t
    lhs, rhs = np.asarray(lhs), np.asarray(rhs)
    res = dg(lhs, rhs, lc, rc, lb, rb) if expect is None else expect
    res = np.asarray(res)
    attr = dims_attr(lc, rc, lb, rb) + extra_attr
    mod = U.entry([U.shape(t, lhs.shape), U.shape(t, rhs.shape)], [],
                  "%s dot(p0, p1), %s" % (U.shape(out_t, res.shape), attr))
    return H.Case(name, spec, source, mod,
                  args=[U.lit(t, lhs), U.lit(t, rhs)],
                  expect=U.lit(out_t, res), tolerance=tolerance, note=note)


def spec_examples():
    cs = []
    cs.append(dot_case(
        "dot.f32.spec_example.contracting", [DG_EX1, DG_CSIZE],
        "spec-example", "f32", [[1, 2, 3], [4, 5, 6]],
        [[1, 1, 1], [2, 2, 2]], [1], [1]))
    cs.append(dot_case(
        "dot.f32.spec_example.batch", [DG_EX2, DG_BSIZE], "spec-example",
        "f32", [[[1, 2], [3, 4]], [[5, 6], [7, 8]]],
        [[[1, 0], [0, 1]], [[1, 0], [0, 1]]], [2], [1], [0], [0]))
    return cs


def rank_forms():
    """The Dot table's three forms and DotGeneral's batch-matmul rows."""
    cs = []
    a = np.arange(1, 4)
    cs.append(dot_case("dot.f32.vector_vector", [
        DOT, "Dot :: vector dot product",
        "Dot :: The exact semantics of this operation depend on the ranks of the operands:"], "hand", "f32", a, [4, -5, 6],
        [0], [0]))
    cs.append(dot_case("dot.s32.matrix_vector", [
        DOT, "Dot :: matrix-vector multiplication"], "hand", "s32",
        [[1, 2, 3], [4, 5, 6]], [7, -8, 9], [1], [0]))
    cs.append(dot_case("dot.s32.matrix_matrix", [
        DOT, DOT_TABLE, 'Dot :: These are the "contracted" dimensions.'], "hand",
                       "s32", [[1, 2, 3], [4, 5, 6]],
                       [[1, -1], [2, 0], [0, 3]], [1], [0]))
    rng = np.random.RandomState(5)
    l = rng.randint(-4, 5, size=(2, 3, 2, 3))
    r = rng.randint(-4, 5, size=(2, 3, 3, 2))
    cs.append(dot_case("dot.s32.batch_matmul_two_batch_dims", [
        DG_BATCH, DG, "DotGeneral :: Similar to Dot, but allows contracting and batch dimension numbers to be specified for both the `lhs` and `rhs`."],
                       "hand", "s32", l, r, [3], [2], [0, 1], [0, 1]))
    l = rng.randint(-4, 5, size=(3, 2, 4))
    r = rng.randint(-4, 5, size=(4, 2, 3))
    # Batch dims in the middle: the result is [batch, lhs free, rhs free].
    cs.append(dot_case("dot.s32.result_dimension_order", [DG_ORDER],
                       "hand", "s32", l, r, [2], [0], [1], [1]))
    l = rng.randint(-3, 4, size=(2, 3, 4))
    r = rng.randint(-3, 4, size=(4, 5, 3))
    cs.append(dot_case("dot.s32.two_contracting_dims", [DG, DG_CSIZE],
                       "hand", "s32", l, r, [1, 2], [2, 0]))
    # The contracting dims paired in the listed order, not sorted.
    l = rng.randint(-3, 4, size=(3, 3))
    r = rng.randint(-3, 4, size=(3, 3))
    cs.append(dot_case("dot.s32.contracting_order_pairs", [DG_CSIZE], "hand",
                       "s32", l, r, [0], [1]))
    l = rng.randint(-3, 4, size=(2, 2, 2))
    r = rng.randint(-3, 4, size=(2, 2, 2))
    cs.append(dot_case("dot.s32.no_free_dims", [DG, DG_ORDER], "hand",
                       "s32", l, r, [2], [1], [0, 1], [0, 2]))
    # Outer product: no contracting dims.
    cs.append(dot_case("dot.s32.outer_product", [DG], "hand", "s32",
                       [1, 2, 3], [4, 5], [], []))
    return cs


# Candidate data sets for the element-type sweep: lhs [2,2] @ rhs [2,2].
CANDIDATES = [
    (np.array([[1, -2], [3, 4]]), np.array([[5, 6], [-7, 8]])),
    (np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])),
    (np.array([[1, -1], [2, 0]]), np.array([[1, 2], [-1, 1]])),
    (np.array([[1, 2], [0, 1]]), np.array([[1, 0], [1, 1]])),
    (np.array([[1, 1], [0, 1]]), np.array([[1, 0], [1, 1]])),
    (np.array([[0.5, 1], [2, 0.25]]), np.array([[1, 0.5], [0.25, 2]])),
    (np.array([[1, 1], [2, 2]]), np.array([[1, 2], [1, 2]])),
    (np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 1]])),
    (np.array([[-1, 0], [0, -1]]), np.array([[0, 0], [0, 0]])),
]


def type_sweep():
    cs = []
    for t in H.ALL:
        if t == "pred":
            l = np.array([[1, 0], [1, 1]])
            r = np.array([[0, 1], [0, 0]])
            # pred: sum is OR and product AND (XLA); spec: "sum of products".
            res = (dg(l, r, [1], [0]) > 0).astype(int)
            cs.append(dot_case("dot.pred.values", [DOT], "hand", t, l, r,
                               [1], [0], expect=res,
                               note="pred: products are AND, the sum is OR"))
            continue
        if H.is_complex(t):
            l = np.array([[1 + 2j, -1], [0.5j, 2]])
            r = np.array([[3, 1 - 1j], [2j, -0.5]])
            cs.append(dot_case("dot.%s.values" % t, [DOT], "hand", t, l, r,
                               [1], [0]))
            continue
        picked = U.pick_data(t, CANDIDATES,
                             lambda a, b: dg(a, b, [1], [0]).astype(float))
        if picked is None and t == "f8e8m0fnu":
            # No zero, no negatives, powers of two only (so no sum of two
            # products is a value): a contracting length of 1.
            l = np.array([[1], [0.5]])
            r = np.array([[2, 4]])
            picked = ((l, r), dg(l, r, [1], [0]))
        assert picked is not None, t
        (l, r), res = picked
        cs.append(dot_case("dot.%s.values" % t, [DOT], "hand", t, l, r,
                           [1], [0]))
    return cs


def preferred_types():
    cs = []
    # s8 x s8 -> s32: the products do not wrap at 8 bits.
    cs.append(dot_case("dot.s8.preferred_s32", [
        DG_PREF, "Dot :: `preferred_element_type` is a scalar element of higher/lower precision output types used for accumulation."], "hand", "s8",
                       [[127, -128], [100, 100]], [[127, 1], [-128, 1]],
                       [1], [0], out_t="s32"))
    cs.append(dot_case("dot.u8.preferred_u32", [DG_PREF], "hand", "u8",
                       [[255, 255]], [[255], [255]], [1], [0], out_t="u32"))
    # bf16 -> f32: 256 + 1 is not a bf16 value but is an f32 value.
    cs.append(dot_case("dot.bf16.preferred_f32", [DG_PREF], "hand", "bf16",
                       [[256, 1]], [[1], [1]], [1], [0], out_t="f32"))
    cs.append(dot_case("dot.f16.preferred_f32", [DG_PREF], "hand", "f16",
                       [[65504, 65504]], [[1], [1]], [1], [0], out_t="f32"))
    for p in ("DEFAULT", "HIGH", "HIGHEST"):
        cs.append(dot_case(
            "dot.f32.precision_%s" % p.lower(), [
                DG_PREC, "Dot :: `precision_config` is used to indicate the precision configuration."], "hand", "f32",
            [[1, 2], [3, 4]], [[5, 6], [7, 8]], [1], [0],
            extra_attr=", operand_precision={%s,%s}" % (p, p)))
    return cs


def edge_values():
    cs = []
    inf, nan = float("inf"), float("nan")
    for t in ("f32", "f64", "bf16", "f16"):
        cs.append(dot_case("dot.%s.special" % t, [DOT], "hand", t,
                           [[inf, 1], [0, 1], [nan, 0], [inf, -inf]],
                           [[1, 0], [1, 2]], [1], [0],
                           expect=np.array(
                               [[inf, 1], [0, 1], [nan, 0], [inf, -inf]])
                           @ np.array([[1., 0], [1, 2]]),
                           note="0 * inf is NaN; inf - inf is NaN"))
    # Subnormal products and sums (IEEE gradual underflow, as the
    # elementwise cases assume; XLA CPU flushes them to zero).
    tiny = 2.0 ** -140
    cs.append(dot_case("dot.f32.subnormal", [DOT], "hand", "f32",
                       [[tiny, tiny], [2.0 ** -70, 0]],
                       [[1, 0.5], [1, 2.0 ** -70]], [1], [0],
                       note="subnormal results are not flushed"))
    cs.append(dot_case("dot.f8e4m3fn.preferred_f32", [DG_PREF], "hand",
                       "f8e4m3fn",
                       [[448, 448], [-448, 0.5]], [[448], [448]], [1], [0],
                       out_t="f32",
                       note="448 * 448 * 2 exceeds f8e4m3fn; f32 holds it"))
    # Empty contracting dimension: a sum of no products is 0.
    for t in ("f32", "s32"):
        mod = U.entry([U.shape(t, [2, 0]), U.shape(t, [0, 3])], [],
                      "%s dot(p0, p1), lhs_contracting_dims={1}, "
                      "rhs_contracting_dims={0}" % U.shape(t, [2, 3]))
        cs.append(H.Case("dot.%s.empty_contracting" % t, [DOT], "hand", mod,
                         args=["%s {{}, {}}" % U.shape(t, [2, 0]),
                               "%s {  }" % U.shape(t, [0, 3])],
                         expect=U.lit(t, np.zeros((2, 3), int)),
                         tolerance="exact"))
    mod = U.entry([U.shape("f32", [0, 2]), U.shape("f32", [2, 3])], [],
                  "f32[0,3] dot(p0, p1), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={0}")
    cs.append(H.Case("dot.f32.empty_free", [DOT], "hand", mod,
                     args=["f32[0,2] {  }", U.lit("f32", np.ones((2, 3)))],
                     expect="f32[0,3] {  }"))
    # Integer products wrap (two's complement) at the result's width.
    cs.append(dot_case("dot.s32.wraps", [DOT], "hand", "s32",
                       [[65536, 65536]], [[65536], [1]], [1], [0],
                       expect=[[65536]],
                       note="65536*65536 wraps to 0 in s32 (XLA)"))
    # f32 accuracy: the sum rounds once per addition at most; data with an
    # exact sum but whose partial sums cancel.
    cs.append(dot_case("dot.f32.cancellation", [DOT], "hand", "f32",
                       [[1e8, 1, -1e8]], [[1], [1], [1]], [1], [0],
                       expect=[[1]], tolerance="abs=8 rel=0",
                       note="exact sum 1; a summation order other than the "
                            "index order may give 0 (within abs=8)"))
    return cs


def rejects():
    cs = []
    def mod(l, r, out, attr):
        return U.entry([l, r], [], "%s dot(p0, p1), %s" % (out, attr))
    cs.append(U.reject_case("dot.reject.contracting_size", [DOT_SAME, DG_CSIZE],
                            mod("f32[2,3]", "f32[2,2]", "f32[2,2]",
                                dims_attr([1], [0]))))
    cs.append(U.reject_case("dot.reject.batch_size", [DG_BSIZE],
                            mod("f32[2,2,2]", "f32[3,2,2]", "f32[2,2,2]",
                                dims_attr([2], [1], [0], [0]))))
    cs.append(U.reject_case("dot.reject.contracting_out_of_range", [DG],
                            mod("f32[2,3]", "f32[3,2]", "f32[2,2]",
                                dims_attr([2], [0]))))
    cs.append(U.reject_case("dot.reject.contracting_count_differs", [DG_CSIZE],
                            mod("f32[2,3]", "f32[3,2]", "f32[2,2]",
                                dims_attr([1], [0, 1]))))
    cs.append(U.reject_case("dot.reject.dim_twice", [DG],
                            mod("f32[2,2]", "f32[2,2]", "f32[2]",
                                dims_attr([1], [0], [1], [1]))))
    cs.append(U.reject_case("dot.reject.result_shape", [DG_ORDER],
                            mod("f32[2,3]", "f32[3,4]", "f32[4,2]",
                                dims_attr([1], [0]))))
    cs.append(U.reject_case("dot.reject.batch_result_shape", [DG_ORDER],
                            mod("f32[3,2,4]", "f32[4,2,5]", "f32[3,2,5]",
                                dims_attr([2], [0], [1], [1]))))
    return cs


RD = "RaggedDot :: For a breakdown of `RaggedDot` computation see"
SD = "ScaledDot :: Creates a scaled dot op with operands 'lhs', 'lhs_scale', 'rhs', and 'rhs_scale', with contracting and batch dimensions specified in 'dimension_numbers'."
SD_LIKE = "ScaledDot :: Similar to [DotGeneral](#dotgeneral)."


def ragged_free(lhs, rhs, sizes):
    """Mode 1: lhs [m, k], rhs [g, k, n]; row r in group i uses rhs[i];
    rows past the last group are 0."""
    lhs, rhs = np.asarray(lhs, dtype=object), np.asarray(rhs, dtype=object)
    out = np.zeros((lhs.shape[0], rhs.shape[2]), dtype=object)
    row = 0
    for i, size in enumerate(sizes):
        for r in range(row, min(row + size, lhs.shape[0])):
            out[r] = dg(lhs[r:r + 1], rhs[i], [1], [0])[0]
        row += size
    return out


def ragged_contracting(lhs, rhs, sizes):
    """Mode 2: lhs [m, k], rhs [k, n] -> [g, m, n]; slice i sums over the
    contracting positions of group i."""
    lhs, rhs = np.asarray(lhs, dtype=object), np.asarray(rhs, dtype=object)
    outs, start = [], 0
    for size in sizes:
        outs.append(dg(lhs[:, start:start + size], rhs[start:start + size],
                       [1], [0]))
        start += size
    return np.stack(outs)


def ragged_case(name, spec, t, lhs, rhs, sizes, mode, idx_t="s32",
                note=None):
    lhs, rhs = np.asarray(lhs), np.asarray(rhs)
    if mode == "free":
        res = ragged_free(lhs, rhs, sizes)
        attr = ("lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
                "lhs_ragged_dims={0}, rhs_group_dims={0}")
    elif mode == "contracting":
        res = ragged_contracting(lhs, rhs, sizes)
        attr = ("lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
                "lhs_ragged_dims={1}")
    else:  # batch
        res = dg(lhs, rhs, [2], [1], [0], [0])
        attr = ("lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                "rhs_batch_dims={0}, rhs_contracting_dims={1}, "
                "lhs_ragged_dims={0}")
    res = np.asarray(res)
    sizes = np.asarray(sizes)
    mod = U.entry([U.shape(t, lhs.shape), U.shape(t, rhs.shape),
                   U.shape(idx_t, sizes.shape)], [],
                  "%s ragged-dot(p0, p1, p2), %s" % (U.shape(t, res.shape),
                                                     attr))
    return H.Case(name, spec, "hand", mod,
                  args=[U.lit(t, lhs), U.lit(t, rhs), U.lit(idx_t, sizes)],
                  expect=U.lit(t, res), tolerance="exact", note=note)


def ragged_cases():
    cs = []
    R = np.random.RandomState(11)
    l = R.randint(-3, 4, size=(5, 3))
    r = R.randint(-3, 4, size=(3, 3, 2))
    cs.append(ragged_case("ragged-dot.f32.ragged_free_dim", [RD], "f32", l,
                          r, [2, 0, 3], "free",
                          note="chlo.ragged_dot mode 1: rows of group i "
                               "use rhs group i; an empty group"))
    cs.append(ragged_case("ragged-dot.s32.rows_past_groups", [RD], "s32", l,
                          r, [1, 2, 1], "free", idx_t="s64",
                          note="rows after the last group are 0"))
    l = R.randint(-3, 4, size=(2, 5))
    r = R.randint(-3, 4, size=(5, 2))
    cs.append(ragged_case("ragged-dot.f32.ragged_contracting_dim", [RD],
                          "f32", l, r, [2, 3], "contracting",
                          note="mode 2: result slice i sums group i's "
                               "contracting positions"))
    l = R.randint(-3, 4, size=(2, 2, 3))
    r = R.randint(-3, 4, size=(2, 3, 2))
    cs.append(ragged_case("ragged-dot.s32.ragged_batch_dim", [RD], "s32", l,
                          r, [1, 1], "batch",
                          note="mode 3: a ragged batch dim is a plain dot"))
    for t in H.ALL:
        if t in ("pred", "f8e8m0fnu"):
            continue
        if H.is_complex(t):
            lt = np.array([[1 + 1j, 2], [-1, 1j]])
            rt = np.array([[[1, 0], [2j, 1]], [[0.5, 1], [1, -1]]])
        else:
            picked = U.pick_data(t, CANDIDATES,
                                 lambda a, b: dg(a, b, [1], [0]).astype(float))
            (lt, rb), _ = picked
            rt = np.stack([rb, rb])
        cs.append(ragged_case("ragged-dot.%s.values" % t, [RD], t, lt, rt,
                              [1, 1], "free"))
    cs.append(U.reject_case("ragged-dot.reject.group_count", [RD], U.entry(
        ["f32[4,2]", "f32[3,2,1]", "s32[2]"], [],
        "f32[4,1] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}")))
    cs.append(U.reject_case("ragged-dot.reject.group_sizes_type", [RD],
                            U.entry(["f32[4,2]", "f32[2,2,1]", "f32[2]"], [],
        "f32[4,1] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}")))
    cs.append(U.reject_case("ragged-dot.reject.result_shape", [RD], U.entry(
        ["f32[4,2]", "f32[2,2,1]", "s32[2]"], [],
        "f32[4,2] ragged-dot(p0, p1, p2), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}")))
    return cs


def scaled(x, scale, axis):
    """x times its block's scale along `axis` (block = size / scale size)."""
    x = np.asarray(x, dtype=object)
    scale = np.asarray(scale, dtype=object)
    if scale.ndim == 0:
        return x * scale
    block = x.shape[axis] // scale.shape[axis]
    return x * np.repeat(scale, block, axis=axis)


def scaled_case(name, spec, t, st, out_t, lhs, rhs, ls, rs, note=None):
    lhs, rhs, ls, rs = (np.asarray(a) for a in (lhs, rhs, ls, rs))
    res = dg(scaled(lhs, ls, 1), scaled(rhs, rs, 0), [1], [0])
    mod = U.entry([U.shape(t, lhs.shape), U.shape(t, rhs.shape),
                   U.shape(st, ls.shape), U.shape(st, rs.shape)], [],
                  "%s scaled-dot(p0, p1, p2, p3), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={0}" % U.shape(out_t, res.shape))
    return H.Case(name, spec, "hand", mod,
                  args=[U.lit(t, lhs), U.lit(t, rhs), U.lit(st, ls),
                        U.lit(st, rs)],
                  expect=U.lit(out_t, res), tolerance="exact",
                  note=note or "HLO operand order: lhs, rhs, lhs_scale, "
                  "rhs_scale; each element times its block's scale")


def scaled_cases():
    cs = []
    R = np.random.RandomState(12)
    # MX-style: f8 data, e8m0 block scales of 32 elements.
    l = R.randint(-4, 5, size=(2, 64)) * 0.5
    r = R.randint(-4, 5, size=(64, 2)) * 0.5
    ls = np.array([[2, 0.5], [1, 4]])
    rs = np.array([[0.25, 1], [8, 2]])
    for t in ("f8e4m3fn", "f8e5m2"):
        cs.append(scaled_case("scaled-dot.%s.e8m0_block_scales" % t, [SD,
                                                                       SD_LIKE],
                              t, "f8e8m0fnu", "f32", l, r, ls, rs))
    l = R.randint(-4, 5, size=(2, 4))
    r = R.randint(-4, 5, size=(4, 3))
    cs.append(scaled_case("scaled-dot.bf16.block_scales", [SD], "bf16",
                          "bf16", "f32", l, r, [[1, 2], [0.5, -1]],
                          [[2, 1, 1], [1, 0.25, 4]]))
    cs.append(scaled_case("scaled-dot.f32.scalar_scales", [SD], "f32", "f32",
                          "f32", l, r, 2, 0.5))
    cs.append(scaled_case("scaled-dot.f32.unit_scales_is_dot", [SD_LIKE],
                          "f32", "f32", "f32", l, r, np.ones((2, 1)),
                          np.ones((1, 3))))
    for t in ("f4e2m1fn", "f6e2m3fn", "f6e3m2fn", "f8e4m3fn"):
        lt = np.array([[1, -0.5, 2, 1.5]])
        rt = np.array([[1], [2], [-1], [0.5]])
        cs.append(scaled_case("scaled-dot.%s.values" % t, [SD], t,
                              "f8e8m0fnu", "f32", lt, rt, [[2, 0.5]],
                              [[4], [1]]))
    cs.append(U.reject_case("scaled-dot.reject.scale_block", [SD], U.entry(
        ["f32[1,4]", "f32[4,1]", "f32[1,3]", "f32[]"], [],
        "f32[1,1] scaled-dot(p0, p1, p2, p3), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={0}")))
    cs.append(U.reject_case("scaled-dot.reject.result_shape", [SD], U.entry(
        ["f32[1,4]", "f32[4,1]", "f32[1,2]", "f32[]"], [],
        "f32[1,2] scaled-dot(p0, p1, p2, p3), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={0}")))
    return cs


HEADER = """Dot and DotGeneral (operation_semantics.md, Dot, DotGeneral).
Integer-valued (or exactly representable) data: every sum is exact, so
the cases compare exactly whatever the summation order."""


def main():
    cases = (spec_examples() + rank_forms() + type_sweep() + preferred_types()
             + edge_values() + rejects())
    H.write_file("linalg", "dot", "dot", cases, HEADER, GEN)
    print("dot", len(cases))
    cases = ragged_cases()
    H.write_file("linalg", "ragged-dot", "ragged-dot", cases,
                 "RaggedDot (operation_semantics.md defers to "
                 "chlo.ragged_dot): its three modes, exact integer data.",
                 GEN)
    print("ragged-dot", len(cases))
    cases = scaled_cases()
    H.write_file("linalg", "scaled-dot", "scaled-dot", cases,
                 "ScaledDot: dot(lhs * block scales, rhs * block scales); "
                 "exact data.", GEN)
    print("scaled-dot", len(cases))


if __name__ == "__main__":
    main()
