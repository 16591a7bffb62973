"""Writes spec_tests/linalg/{fft,cholesky,triangular-solve,
batch-norm-training,batch-norm-inference,batch-norm-grad}.hlotest.

Expected values: exact Python arithmetic (fractions, integer factors) on
data chosen so that every intermediate and result is a value of the element
type, or numpy's pocketfft in float64 for the FFT lengths whose twiddles are
not exact (those cases use the default tolerance of docs/conformance.md)."""
from fractions import Fraction

import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_linalg_factor.py"
REAL_FLOATS = [t for t in H.FLOATS]

# --- fft -------------------------------------------------------------------

FFT_OP = "Fft :: The XLA FFT operation implements the forward and inverse Fourier Transforms for real and complex inputs/outputs."
FFT_FFT = "Fft :: Forward complex-to-complex FFT. Shape is unchanged."
FFT_IFFT = "Fft :: Inverse complex-to-complex FFT. Shape is unchanged."
FFT_RFFT = "Fft :: Forward real-to-complex FFT. Shape of the innermost axis is"
FFT_IRFFT = "Fft :: Inverse real-to-complex FFT (i.e. takes complex, returns real)."
FFT_IRFFT2 = "Fft :: `fft_length[-1]` is a non-zero value, inferring the part of the"
FFT_MULTI = "Multidimensional FFT :: When more than 1 `fft_length` is provided, this is equivalent to applying a cascade of FFT operations to each of the innermost axes."
FFT_MULTI_R = "Multidimensional FFT :: the innermost axis transform is (effectively) performed first (RFFT; last for IRFFT), which is why the innermost axis is the one which changes size."
FFT_AXES = "Fft :: Multidimensional FFTs on up to 3 axes are supported."
FFT_LEN = "Fft :: The time-domain lengths"


def fft_case(name, spec, kind, in_t, out_t, x, lengths, exact, note=None):
    x = np.asarray(x)
    axes = tuple(range(-len(lengths), 0))
    if kind == "FFT":
        y = np.fft.fftn(x, axes=axes)
    elif kind == "IFFT":
        y = np.fft.ifftn(x, axes=axes)
    elif kind == "RFFT":
        y = np.fft.rfftn(x, s=lengths, axes=axes)
    else:
        y = np.fft.irfftn(x, s=lengths, axes=axes)
    if exact:
        y = np.round(y.real * 4) / 4 + (
            1j * np.round(y.imag * 4) / 4 if np.iscomplexobj(y) else 0)
    mod = U.entry([U.shape(in_t, x.shape)], [],
                  "%s fft(p0), fft_type=%s, fft_length={%s}" % (
                      U.shape(out_t, y.shape), kind,
                      ",".join(map(str, lengths))))
    return H.Case(name, spec, "hand" if exact else "numpy", mod,
                  args=[U.lit(in_t, x)], expect=U.lit(out_t, y),
                  tolerance="exact" if exact else None, note=note)


def fft_cases():
    cs = []
    R = np.random.RandomState(3)
    cx = lambda *s: R.randint(-4, 5, size=s) + 1j * R.randint(-4, 5, size=s)
    for ct, rt in (("c64", "f32"), ("c128", "f64")):
        # Length 4: the twiddles are +-1, +-i, so the results are exact.
        cs.append(fft_case("fft.%s.fft_length4" % ct, [FFT_OP, FFT_FFT],
                           "FFT", ct, ct, cx(4), [4], True))
        cs.append(fft_case("fft.%s.ifft_length4" % ct, [FFT_IFFT], "IFFT",
                           ct, ct, 4 * cx(2, 4), [4], True,
                           note="the inverse includes the 1/n factor"))
        cs.append(fft_case("fft.%s.rfft_length4" % rt, [FFT_RFFT], "RFFT",
                           rt, ct, R.randint(-4, 5, size=(3, 4)), [4], True))
        x = np.fft.rfft(R.randint(-4, 5, size=(2, 4)) * 4.0)
        cs.append(fft_case("fft.%s.irfft_length4" % ct, [FFT_IRFFT,
                                                          FFT_IRFFT2],
                           "IRFFT", ct, rt, x, [4], True))
        # Odd lengths: pocketfft in float64.
        cs.append(fft_case("fft.%s.fft_length5" % ct, [FFT_FFT], "FFT", ct,
                           ct, cx(2, 5), [5], False))
        cs.append(fft_case("fft.%s.ifft_length7" % ct, [FFT_IFFT], "IFFT",
                           ct, ct, cx(7), [7], False))
        cs.append(fft_case("fft.%s.rfft_length5" % rt, [FFT_RFFT], "RFFT",
                           rt, ct, R.randint(-4, 5, size=(5,)), [5], False))
        cs.append(fft_case("fft.%s.irfft_length5" % ct, [FFT_IRFFT2],
                           "IRFFT", ct, rt,
                           np.fft.rfft(R.randint(-4, 5, size=(5,))), [5],
                           False, note="innermost size 3 expands to 5"))
        # Two and three axes.
        cs.append(fft_case("fft.%s.fft_2d" % ct, [FFT_MULTI, FFT_AXES],
                           "FFT", ct, ct, cx(2, 4, 4), [4, 4], True))
        cs.append(fft_case("fft.%s.ifft_3d" % ct, [FFT_MULTI, FFT_AXES],
                           "IFFT", ct, ct, 16 * cx(2, 2, 4), [2, 2, 4], True))
        cs.append(fft_case("fft.%s.rfft_2d" % rt, [
            FFT_MULTI_R, "Multidimensional FFT :: Other axis transforms will then be complex->complex."], "RFFT",
                           rt, ct, R.randint(-4, 5, size=(2, 4)), [2, 4],
                           True))
        cs.append(fft_case("fft.%s.irfft_3d" % ct, [FFT_MULTI_R], "IRFFT",
                           ct, rt, np.fft.rfftn(
                               R.randint(-4, 5, size=(2, 2, 4)) * 16.0),
                           [2, 2, 4], True))
        cs.append(fft_case("fft.%s.fft_length1" % ct, [FFT_FFT], "FFT", ct,
                           ct, cx(3, 1), [1], True))
    # Round trip: RFFT length 16 and 17 have the same output shape.
    cs.append(fft_case("fft.f32.rfft_length17", [FFT_LEN], "RFFT", "f32",
                       "c64", R.randint(-4, 5, size=(17,)), [17], False,
                       note="RFFT(fft_length=[17]) has the shape of "
                            "RFFT(fft_length=[16])"))
    cs.append(fft_case("fft.c64.irfft_length16", [FFT_LEN, FFT_IRFFT2],
                       "IRFFT", "c64", "f32",
                       np.fft.rfft(R.randint(-4, 5, size=(16,)) * 16.0),
                       [16], False))

    def rej(name, spec, in_s, out_s, kind, lengths):
        return U.reject_case(name, spec, U.entry([in_s], [], (
            "%s fft(p0), fft_type=%s, fft_length={%s}" % (
                out_s, kind, lengths))))
    cs.append(rej("fft.reject.fft_of_real", [FFT_FFT], "f32[4]", "f32[4]",
                  "FFT", "4"))
    cs.append(rej("fft.reject.rfft_of_complex", [FFT_RFFT], "c64[4]",
                  "c64[3]", "RFFT", "4"))
    cs.append(rej("fft.reject.four_axes", [FFT_AXES], "c64[2,2,2,2]",
                  "c64[2,2,2,2]", "FFT", "2,2,2,2"))
    cs.append(rej("fft.reject.length_mismatch", [FFT_LEN], "c64[4]",
                  "c64[4]", "FFT", "8"))
    cs.append(rej("fft.reject.irfft_inner_size", [FFT_IRFFT2], "c64[4]",
                  "f32[4]", "IRFFT", "4"))
    cs.append(rej("fft.reject.rfft_output_shape", [FFT_RFFT], "f32[4]",
                  "c64[4]", "RFFT", "4"))
    return cs


# --- cholesky --------------------------------------------------------------

CH = "Cholesky :: Computes the [Cholesky decomposition](https://en.wikipedia.org/wiki/Cholesky_decomposition) of a batch of symmetric (Hermitian) positive definite matrices."
CH_LOWER = "Cholesky :: If `lower` is `true`, computes lower-triangular matrices `l` such that $a = l . l^T$."
CH_UPPER = "Cholesky :: If `lower` is `false`, computes upper-triangular matrices `u` such that $a = u^T . u$."
CH_READ = "Cholesky :: Values from the other triangle are ignored."
CH_OTHER = "Cholesky :: Output data is returned in the same triangle; the values in the other triangle are implementation-defined and may be anything."
CH_BATCH = "Cholesky :: If `a` has greater than 2 dimensions, `a` is treated as a batch of matrices, where all except the minor 2 dimensions are batch dimensions."
CH_NOTPD = "Cholesky :: If `a` is not symmetric (Hermitian) positive definite, the result is implementation-defined."
CH_TYPE = "Cholesky :: an array of a complex or floating-point type with > 2"


def triangle_mask_body(t, dims, lower, value="c"):
    """Instructions that zero the triangle the spec leaves
    implementation-defined; the last one is named `masked`."""
    n = len(dims)
    s = U.shape(t, dims)
    si = U.shape("s32", dims)
    sp = U.shape("pred", dims)
    return [
        "i0 = %s iota(), iota_dimension=%d" % (si, n - 2),
        "i1 = %s iota(), iota_dimension=%d" % (si, n - 1),
        "keep = %s compare(i0, i1), direction=%s" % (sp, "GE" if lower
                                                      else "LE"),
        "zero = %s[] constant(%s)" % (t, "(0, 0)" if H.is_complex(t)
                                        else "0"),
        "zeros = %s broadcast(zero), dimensions={}" % s,
    ], "%s select(keep, %s, zeros)" % (s, value)


def cholesky_case(name, spec, t, factor, lower, junk, note=None):
    """factor: a batch of triangular matrices with positive real diagonal;
    the operand is factor factor^H (lower) or factor^H factor (upper), its
    other triangle overwritten with `junk`."""
    f = np.asarray(factor, dtype=complex if H.is_complex(t) else float)
    fh = np.conj(np.swapaxes(f, -1, -2))
    a = f @ fh if lower else fh @ f
    n = a.shape[-1]
    iu = np.triu_indices(n, 1) if lower else np.tril_indices(n, -1)
    a = a.copy()
    if junk is not None:
        a[(Ellipsis,) + iu] = junk
    dims = list(a.shape)
    body, root = triangle_mask_body(t, dims, lower)
    body = ["c = %s cholesky(p0), lower=%s" % (U.shape(t, dims),
                                               "true" if lower else "false")
            ] + body
    mod = U.entry([U.shape(t, dims)], body, root)
    assert U.all_representable(t, a) and U.all_representable(t, f), (name, t)
    return H.Case(name, spec + [CH_OTHER], "hand", mod, args=[U.lit(t, a)],
                  expect=U.lit(t, f), tolerance="ulp=0",
                  note=note or "the other triangle of the result is masked "
                  "to 0 (implementation-defined by the spec)")


def cholesky_cases():
    cs = []
    L3 = np.array([[2, 0, 0], [1, 3, 0], [-1, 2, 1]])
    L2 = np.array([[2, 0], [1, 1]])
    nan = float("nan")
    for t in ("f32", "f64"):
        cs.append(cholesky_case("cholesky.%s.lower" % t, [CH, CH_LOWER,
                                                          CH_READ],
                                t, L3, True, nan))
        cs.append(cholesky_case("cholesky.%s.upper" % t, [
            CH, CH_UPPER, CH_READ,
            "Cholesky :: Input data is read only from the lower/upper triangle of `a`, depending on the value of `lower`."],
                                t, L3.T, False, nan))
        cs.append(cholesky_case("cholesky.%s.batch" % t, [CH_BATCH], t,
                                np.stack([L3, np.diag([1, 4, 2]),
                                          [[1, 0, 0], [-2, 1, 0],
                                           [3, 4, 5]]]).reshape(3, 1, 3, 3),
                                True, 0.0))
    for t in ("c64", "c128"):
        L = np.array([[2, 0], [1 + 1j, 3]])
        cs.append(cholesky_case("cholesky.%s.lower" % t, [CH, CH_LOWER,
                                                          CH_READ],
                                t, L, True, complex(99, 99),
                                note="Hermitian: a = l l^H; the other "
                                "triangle is masked to 0"))
        cs.append(cholesky_case("cholesky.%s.upper" % t, [CH, CH_UPPER],
                                t, np.conj(L.T), False, complex(99, -99)))
    for t in REAL_FLOATS:
        if t in ("f32", "f64"):
            continue
        if t == "f8e8m0fnu":
            # No zero: a 1x1 matrix, no triangle to mask.
            mod = U.entry(["f8e8m0fnu[1,1]"], [],
                          "f8e8m0fnu[1,1] cholesky(p0), lower=true")
            cs.append(H.Case("cholesky.f8e8m0fnu.values", [CH, CH_LOWER],
                             "hand", mod, args=["f8e8m0fnu[1,1] {{4}}"],
                             expect="f8e8m0fnu[1,1] {{2}}",
                             tolerance="exact"))
            continue
        junk = 3.0 if not H.has_nan(t) else nan
        cs.append(cholesky_case("cholesky.%s.values" % t, [CH, CH_LOWER,
                                                           CH_TYPE], t, L2,
                                True, junk))
    # Not positive definite: implementation-defined.
    mod = U.entry(["f32[2,2]"], [], "f32[2,2] cholesky(p0), lower=true")
    cs.append(H.Case("cholesky.f32.not_positive_definite", [CH_NOTPD],
                     "hand", mod, args=["f32[2,2] { {1, 0}, {2, -3} }"],
                     impl="a is not positive definite"))
    cs.append(U.reject_case("cholesky.reject.rank1", [CH_TYPE], U.entry(
        ["f32[4]"], [], "f32[4] cholesky(p0), lower=true")))
    cs.append(U.reject_case("cholesky.reject.not_square", [CH_BATCH], U.entry(
        ["f32[2,3]"], [], "f32[2,3] cholesky(p0), lower=true")))
    cs.append(U.reject_case("cholesky.reject.integer", [CH_TYPE], U.entry(
        ["s32[2,2]"], [], "s32[2,2] cholesky(p0), lower=true")))
    return cs


# --- triangular-solve -------------------------------------------------------

TS = "TriangularSolve :: Solves systems of linear equations with lower or upper triangular coefficient matrices by forward- or back-substitution."
TS_FORMS = "TriangularSolve :: this routine solves one of the matrix systems `op(a) * x = b`, or `x * op(a) = b`, for the variable `x`, given `a` and `b`, where `op(a)` is either `op(a) = a`, or `op(a) = Transpose(a)`, or `op(a) = Conj(Transpose(a))`."
TS_LEFT = "TriangularSolve :: indicates whether to solve a system of the"
TS_LOWER = "TriangularSolve :: whether to use the upper or lower triangle"
TS_UNIT = "TriangularSolve :: if `true`, the diagonal elements of `a` are"
TS_TRANS = "TriangularSolve :: whether to use `a` as is, transpose it or"
TS_READ = "TriangularSolve :: Values from the other triangle are ignored."
TS_BATCH = "TriangularSolve :: If the number of dimensions of `a` and `b` are greater than 2, they are treated as batches of matrices, where all except the minor 2 dimensions are batch dimensions."
TS_EQ = "TriangularSolve :: `a` and `b` must have equal batch dimensions."
TS_TYPE = "TriangularSolve :: a > 2 dimensional array of a complex or"


def op_a(a, trans):
    if trans == "NO_TRANSPOSE":
        return a
    at = np.swapaxes(a, -1, -2)
    return np.conj(at) if trans == "ADJOINT" else at


def ts_case(name, spec, t, tri, x, left, lower, unit, trans, junk,
            diag_junk=None):
    """tri: the triangle (other entries 0); x: the solution. b = op(a) x or
    x op(a); the operand a carries `junk` in the other triangle (and
    `diag_junk` on the diagonal when unit_diagonal)."""
    tri = np.asarray(tri, dtype=complex if H.is_complex(t) else float)
    x = np.asarray(x, dtype=tri.dtype)
    eff = tri.copy()
    n = tri.shape[-1]
    if unit:
        eff[..., range(n), range(n)] = 1
    oa = op_a(eff, trans)
    b = oa @ x if left else x @ oa
    a = tri.copy()
    other = np.triu_indices(n, 1) if lower else np.tril_indices(n, -1)
    if junk is not None:
        a[(Ellipsis,) + other] = junk
    if unit and diag_junk is not None:
        a[..., range(n), range(n)] = diag_junk
    for arr in (a, b, x):
        assert U.all_representable(t, arr), (name, t, arr)
    mod = U.entry([U.shape(t, a.shape), U.shape(t, b.shape)], [], (
        "%s triangular-solve(p0, p1), left_side=%s, lower=%s, "
        "unit_diagonal=%s, transpose_a=%s" % (
            U.shape(t, b.shape), str(left).lower(), str(lower).lower(),
            str(unit).lower(), trans)))
    return H.Case(name, spec, "hand", mod, args=[U.lit(t, a), U.lit(t, b)],
                  expect=U.lit(t, x), tolerance="ulp=0",
                  note="ulp=0: the values are exact; the sign of a zero "
                  "depends on the order of the substitution's operations")


def ts_cases():
    cs = []
    low = np.array([[2, 0, 0], [1, -1, 0], [3, 2, 1]])
    R = np.random.RandomState(9)
    nan = float("nan")
    for left in (True, False):
        for lower in (True, False):
            for unit in (False, True):
                for trans in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
                    tri = low if lower else low.T
                    x = R.randint(-3, 4, size=(3, 2) if left else (2, 3))
                    name = "triangular-solve.f32.%s_%s_%s_%s" % (
                        "left" if left else "right",
                        "lower" if lower else "upper",
                        "unit" if unit else "nonunit", trans.lower())
                    cs.append(ts_case(name, [TS, TS_FORMS, TS_LEFT, TS_LOWER,
                                             TS_UNIT, TS_TRANS, TS_READ],
                                      "f32", tri, x, left, lower, unit, trans,
                                      nan, diag_junk=nan))
    # Complex: transpose and conjugate transpose differ.
    ctri = np.array([[2, 0], [1 + 1j, 1j]])
    for t in ("c64", "c128"):
        for trans in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
            for left in (True, False):
                x = np.array([[1 - 1j, 2], [0, -1 + 2j]])
                cs.append(ts_case("triangular-solve.%s.%s_%s" % (
                    t, "left" if left else "right", trans.lower()),
                    [TS_FORMS, TS_TRANS], t, ctri, x, left, True, False,
                    trans, complex(50, 50)))
    # Batches.
    tri = np.stack([low, np.array([[1, 0, 0], [2, 2, 0], [-1, 1, -1]])])
    x = R.randint(-3, 4, size=(2, 3, 1))
    cs.append(ts_case("triangular-solve.f64.batch", [TS_BATCH], "f64", tri,
                      x, True, True, False, "NO_TRANSPOSE", 7.0))
    # Every other float type: a 2x2 system with small values.
    tri2 = np.array([[1, 0], [1, 2]])
    for t in REAL_FLOATS:
        if t == "f8e8m0fnu":
            mod = U.entry(["f8e8m0fnu[1,1]", "f8e8m0fnu[1,2]"], [], (
                "f8e8m0fnu[1,2] triangular-solve(p0, p1), left_side=true, "
                "lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE"))
            cs.append(H.Case("triangular-solve.f8e8m0fnu.values", [TS], "hand",
                             mod, args=["f8e8m0fnu[1,1] {{2}}",
                                        "f8e8m0fnu[1,2] {{4, 0.5}}"],
                             expect="f8e8m0fnu[1,2] {{2, 0.25}}",
                             tolerance="exact"))
            continue
        if t in ("f32",):
            continue
        junk = nan if H.has_nan(t) else 3.0
        cs.append(ts_case("triangular-solve.%s.values" % t, [TS, TS_TYPE], t,
                          tri2, np.array([[1, -1], [0.5, 1]]) if
                          H.is_signed(t) or t in H.SIGNED_FLOATS else
                          np.array([[1, 1], [0.5, 1]]), True, True, False,
                          "NO_TRANSPOSE", junk))

    def rej(name, spec, a, b, out, attrs="left_side=true, lower=true, "
            "transpose_a=NO_TRANSPOSE"):
        return U.reject_case(name, spec, U.entry([a, b], [], (
            "%s triangular-solve(p0, p1), %s" % (out, attrs))))
    cs.append(rej("triangular-solve.reject.not_square", [TS_TYPE],
                  "f32[2,3]", "f32[2,2]", "f32[2,2]"))
    cs.append(rej("triangular-solve.reject.left_size", [
        TS_TYPE, "TriangularSolve :: with shape `[..., M, K]` if `left_side` is"],
                  "f32[2,2]", "f32[3,2]", "f32[3,2]"))
    cs.append(rej("triangular-solve.reject.right_size", [TS_TYPE],
                  "f32[2,2]", "f32[2,3]", "f32[2,3]",
                  "left_side=false, lower=true, transpose_a=NO_TRANSPOSE"))
    cs.append(rej("triangular-solve.reject.batch_dims", [TS_EQ],
                  "f32[3,2,2]", "f32[2,2,2]", "f32[2,2,2]"))
    cs.append(rej("triangular-solve.reject.types_differ", [TS_TYPE],
                  "f32[2,2]", "f64[2,2]", "f64[2,2]"))
    cs.append(rej("triangular-solve.reject.integer", [TS_TYPE],
                  "s32[2,2]", "s32[2,2]", "s32[2,2]"))
    return cs


HEADER_FFT = """Fft (operation_semantics.md, Fft). Lengths 1, 2 and 4 have exact
twiddles (+-1, +-i): those cases compare exactly; the other lengths use
numpy's pocketfft in float64 and the default tolerance."""
HEADER_CH = """Cholesky (operation_semantics.md, Cholesky). The factor's other
triangle is implementation-defined, so each module masks it to 0 (iota,
compare, select) before the comparison; the operand's other triangle holds
NaN (or another junk value) to show it is not read. Integer factors: exact."""
HEADER_TS = """TriangularSolve (operation_semantics.md, TriangularSolve): every
combination of left_side, lower, unit_diagonal and transpose_a. a's other
triangle (and its diagonal under unit_diagonal) holds NaN: never read.
Integer solutions and +-1/2 pivots: every division is exact."""


def main():
    import gen_batch_norm
    files = [("fft", "fft", fft_cases(), HEADER_FFT),
             ("cholesky", "cholesky", cholesky_cases(), HEADER_CH),
             ("triangular-solve", "triangular-solve", ts_cases(), HEADER_TS)]
    for stem, op, cases, header in files:
        H.write_file("linalg", stem, op, cases, header, GEN)
        print(stem, len(cases))
    gen_batch_norm.main()


if __name__ == "__main__":
    main()
