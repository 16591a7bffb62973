"""Generates spec_tests/elementwise/<op>.hlotest for the unary elementwise
ops of operation_semantics.md.

Expected values:
  * exact ops (abs, negate, ceil, floor, the round ops, sign, is-finite,
    not, popcnt, count-leading-zeros, real, imag) by hand / numpy on the
    exact input values;
  * sqrt (correctly rounded in IEEE 754) and the transcendental ops with
    mpmath at 200 bits, rounded to double and then to the element type;
  * special values (NaN, +-inf, +-0, outside the domain) from the C99
    Annex F rules, which numpy's float64 functions implement.
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_unary.py
"""
import math

import mpmath
import numpy as np

import hlotest as h

mpmath.mp.prec = 200
NAN = float("nan")
INF = float("inf")





def logistic_mp(x):
    return 1 / (1 + mpmath.exp(-x))


def rsqrt_mp(x):
    return 1 / mpmath.sqrt(x)


def cbrt_mp(x):
    if isinstance(x, mpmath.mpc):
        return mpmath.cbrt(x)
    return mpmath.sign(x) * mpmath.cbrt(abs(x))


def c99(fn):
    """Special-value rule of a float64 numpy/math function."""
    def f(x):
        with np.errstate(all="ignore"):
            return float(fn(np.float64(x)))
    return f


def np_logistic(x):
    with np.errstate(all="ignore"):
        if np.isnan(x):
            return x
        return 1.0 / (1.0 + np.exp(-x))


TRANSCENDENTAL = {
    # op: (section, fragment, mpmath fn, special-value fn, finite inputs)
    "exponential": ("Exp", "Element-wise natural exponential", mpmath.exp,
                    c99(np.exp), [-3, -1, -0.5, 0.25, 0.5, 1, 1.5, 2]),
    "exponential-minus-one": (
        "Expm1", "Element-wise natural exponential minus one", mpmath.expm1,
        c99(np.expm1), [-2, -0.5, -0.001, 0.0001, 0.25, 0.5, 1, 1.5]),
    "log": ("Log", "Element-wise natural logarithm", mpmath.log, c99(np.log),
            [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 6, 100]),
    "log-plus-one": (
        "Log1p", "Element-wise shifted natural logarithm", mpmath.log1p,
        c99(np.log1p), [-0.75, -0.5, -0.001, 0.0001, 0.5, 1, 3, 6]),
    "sqrt": ("Sqrt", "Element-wise square root operation", mpmath.sqrt,
             c99(np.sqrt), [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 100]),
    "rsqrt": ("Rsqrt", "Element-wise reciprocal of square root operation",
              rsqrt_mp, c99(lambda x: 1.0 / np.sqrt(x)),
              [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 100]),
    "cbrt": ("Cbrt", "Element-wise cubic root operation", cbrt_mp,
             c99(np.cbrt), [-6, -2, -0.5, 0.5, 1, 3, 4, 6]),
    "sine": ("Sin", "Element-wise sine", mpmath.sin, c99(np.sin),
             [-3, -1.5, -0.5, 0.25, 0.5, 1, 2, 3]),
    "cosine": ("Cos", "Element-wise cosine", mpmath.cos, c99(np.cos),
               [-3, -1.5, -0.5, 0.25, 0.5, 1, 2, 3]),
    "tan": ("Tan", "Element-wise tangent", mpmath.tan, c99(np.tan),
            [-3, -1, -0.5, 0.25, 0.5, 1, 1.5, 3]),
    "tanh": ("Tanh", "Element-wise hyperbolic tangent", mpmath.tanh,
             c99(np.tanh), [-3, -1, -0.25, 0.125, 0.5, 1, 2, 4]),
    "cosh": ("Cosh", "Element-wise hyperbolic cosine", mpmath.cosh,
             c99(np.cosh), [-3, -1, -0.5, 0.25, 0.5, 1, 2, 3]),
    "logistic": ("Logistic", "Element-wise logistic function computation",
                 logistic_mp, np_logistic,
                 [-6, -2, -0.5, 0.25, 0.5, 1, 2, 6]),
    "erf": ("Erf", "Element-wise error function", mpmath.erf,
            c99(np.vectorize(math.erf)), [-2, -1, -0.5, 0.125, 0.25, 0.5,
                                          1, 3]),
}
# Ops whose element types exclude complex (compiler/ops/elementwise_shapes.cc
# and XLA: erf is real only).
REAL_ONLY = {"erf"}
# Complex inputs away from branch cuts and from results with a tiny
# component, so each component is well conditioned.
COMPLEX_INPUTS = {
    "exponential": [0j, 1 + 1j, -0.5 + 2j, 0.25 - 0.75j],
    "exponential-minus-one": [0j, 1 + 1j, -0.5 + 2j, 0.25 - 0.75j],
    "log": [1 + 0j, 1 + 1j, -2 + 1j, 0.5 - 3j],
    "log-plus-one": [0j, 1 + 1j, -2 + 1j, 0.5 - 3j],
    "sqrt": [4 + 0j, -4 + 0j, 3 + 4j, -3 - 4j, 0.5 + 2j],
    "rsqrt": [4 + 0j, 3 + 4j, -3 - 4j, 0.5 + 2j],
    "cbrt": [8 + 0j, 1 + 1j, -2 + 3j],
    "sine": [0j, 1 + 1j, -0.5 + 2j, 2 - 0.5j],
    "cosine": [0j, 1 + 1j, -0.5 + 2j, 2 - 0.5j],
    "tan": [0j, 1 + 1j, -0.5 + 2j, 0.5 - 0.5j],
    "tanh": [0j, 1 + 1j, -0.5 + 1j, 0.5 - 0.5j],
    "cosh": [0j, 1 + 1j, -0.5 + 2j, 2 - 0.5j],
    "logistic": [0j, 1 + 1j, -0.5 + 1j, 2 - 0.5j],
}


# Inputs near the ends of each type's range: overflow to inf, underflow to
# subnormals/zero, saturation (1 of tanh), huge arguments of log.
RANGE = {
    "exponential": [88.0, 89.0, -87.0, -103.0, -110.0, 709.0, 710.0, -745.0,
                    11.0, 12.0, -17.0, -25.0],
    "exponential-minus-one": [89.0, -100.0, 710.0, 11.0, 12.0, -40.0],
    "log": ["max", "tiny", 1e30, 1e-30],
    "log-plus-one": ["max", 1e30, -0.9999],
    "logistic": [-100.0, 100.0, -20.0, -745.0, 745.0, -17.0, 17.0],
    "tanh": [20.0, -20.0, 400.0, 9.0, -9.0],
    "cosh": [89.0, 90.0, 710.0, 711.0, 11.0, 12.0],
    "sqrt": ["max", "tiny", 1e30, 1e-30],
    "rsqrt": ["max", 1e30, 1e-30],
    "cbrt": ["max", "-max", 1e30, -1e-30],
    "erf": [6.0, -6.0, 30.0, 1e-30],
    "sine": [1e-30, 100.0, -1000.0],
    "cosine": [1e-30, 100.0, -1000.0],
    "tan": [1e-30, 100.0, -1000.0, 1.5625],
}


def range_values(op, t):
    fi = h.finfo(t)
    out = []
    for v in RANGE.get(op, []):
        v = {"max": float(fi.max), "-max": -float(fi.max),
             "tiny": float(fi.smallest_normal)}.get(v, v)
        v = float(h.to_type(t, v))
        if math.isfinite(v) and v not in out and v != 0:
            out.append(v)
    return out



def specials(t):
    cand = [NAN, INF, -INF, 0.0, -0.0]
    out = []
    for v in cand:
        if h.representable(t, v):
            out.append(v)
    return out


def subnormals(t):
    fi = h.finfo(t)
    tiny = float(fi.smallest_subnormal)
    if tiny >= float(fi.smallest_normal) or t == "f8e8m0fnu":
        return []
    largest = float(fi.smallest_normal) - tiny
    vals = [tiny, -tiny, largest, -largest]
    return [v for v in vals if h.representable(t, v)]


def round_result(t, x):
    """Correctly rounded double x -> element type t, as a Python float."""
    if math.isnan(x):
        return NAN
    return float(h.to_type(t, x))


def fits(t, exact):
    """The rounded result is a number of t (no overflow into NaN or the
    saturating edge of the fn/fnuz types, no unrepresentable sign)."""
    if math.isnan(exact):
        return h.has_nan(t)
    if math.isinf(exact):
        return h.has_inf(t)
    if exact < 0 and t == "f8e8m0fnu":
        return False
    if exact == 0 and t == "f8e8m0fnu":
        return False
    if exact == 0 and math.copysign(1, exact) < 0:
        return h.has_neg_zero(t)
    limit = float(h.finfo(t).max)
    r = round_result(t, exact)
    if abs(exact) > limit:
        return h.has_inf(t) and math.isinf(r)
    return not math.isnan(r)


def unary_module(op, t, n, result_t=None):
    result_t = result_t or t
    return h.module(["%s[%d]" % (t, n)], "%s[%d]" % (result_t, n),
                    "%s(p0)" % op)


def run_case(op, name, spec, source, t, inputs, outputs, result_t=None,
             note=None, tolerance=None):
    return h.Case(name, spec, source,
                  unary_module(op, t, len(inputs), result_t),
                  args=[h.literal(t, inputs)],
                  expect=h.literal(result_t or t, outputs),
                  note=note, tolerance=tolerance)


def reject_case(op, name, spec, t, rule, result_t=None):
    return h.Case(name, spec, "hand", unary_module(op, t, 2, result_t),
                  reject="verify " + rule)


def rejects_for(op, section, frag, accepted, result_t_fn=None):
    cases = []
    spec = "%s :: %s" % (section, frag)
    for t in ["pred", "s32", "u8", "f32", "c64", "s4", "bf16"]:
        if t in accepted:
            continue
        rt = result_t_fn(t) if result_t_fn else t
        cases.append(reject_case(
            op, "%s.reject.%s" % (op, t), spec, t,
            "operation_semantics.md, %s" % section, rt))
    return cases


# --- transcendental and sqrt ---------------------------------------------


def transcendental_cases(op):
    section, frag, mpfn, special_fn, finite = TRANSCENDENTAL[op]
    spec = "%s :: %s" % (section, frag)
    cases = []
    types = h.FLOATS + ([] if op in REAL_ONLY else h.COMPLEX)
    # f8e8m0fnu (powers of two only) is left out: rounding to it is not
    # specified by the spec nor uniform across implementations.
    types = [t for t in types if t != "f8e8m0fnu"]
    for t in h.FLOATS:
        if t == "f8e8m0fnu":
            continue
        groups = [("values", [float(v) for v in finite], "mpmath")]
        groups.append(("special", specials(t) + [-1.0, -2.0]
                       if op in ("log", "sqrt", "rsqrt", "log-plus-one")
                       else specials(t), "numpy"))
        groups.append(("subnormal", subnormals(t), "mpmath"))
        groups.append(("range", range_values(op, t), "mpmath"))
        for group, values, source in groups:
            ins, outs = [], []
            for v in values:
                if not h.representable(t, v) or v in ins and not math.isnan(v):
                    continue
                if math.isnan(v) or math.isinf(v) or v == 0 or (
                        group == "special"):
                    exact = special_fn(v)
                elif op in ("log", "sqrt", "rsqrt") and v < 0:
                    exact = NAN
                else:
                    exact = float(mpfn(mpmath.mpf(v)))
                if not fits(t, exact):
                    continue
                ins.append(v)
                outs.append(round_result(t, exact))
            if not ins:
                continue
            cases.append(run_case(op, "%s.%s.%s" % (op, t, group), spec,
                                  source, t, ins, outs))
    if op not in REAL_ONLY:
        for t in h.COMPLEX:
            ins = COMPLEX_INPUTS[op]
            outs = []
            for z in ins:
                r = mpfn(mpmath.mpc(z.real, z.imag))
                outs.append(complex(float(mpmath.re(r)), float(mpmath.im(r))))
            if t == "c64":
                outs = [complex(np.complex64(o)) for o in outs]
                ins_t = [complex(np.complex64(z)) for z in ins]
                assert ins_t == [complex(z) for z in ins] or op == "sqrt"
            cases.append(run_case(op, "%s.%s.values" % (op, t), spec,
                                  "mpmath", t, ins, outs))
    cases += complex_special_cases(op, spec)
    cases += rejects_for(op, section, frag, types)
    return cases


# Complex special values and branch cuts (C99 Annex G, which numpy's
# complex128 functions implement; XLA agrees on these).
COMPLEX_SPECIAL = {
    "log": [complex(-4, 0.0), complex(-4, -0.0), complex(-1, 0.0),
            complex(-1, -0.0), complex(0.0, 0.0), complex(-0.0, 0.0),
            complex(INF, 1), complex(-INF, 1)],
    "sqrt": [complex(-4, 0.0), complex(-1, 0.0), complex(0.0, 0.0),
             complex(INF, 1), complex(-INF, 1), complex(4, -0.0)],
    "exponential": [complex(-INF, 1), complex(INF, 0.0), complex(0.0, 0.0),
                    complex(-0.0, -0.0)],
}


def complex_special_cases(op, spec):
    vals = COMPLEX_SPECIAL.get(op)
    if not vals:
        return []
    fn = {"log": np.log, "sqrt": np.sqrt, "exponential": np.exp}[op]
    cases = []
    for t in h.COMPLEX:
        with np.errstate(all="ignore"):
            outs = [complex(fn(np.complex128(z))) for z in vals]
        if t == "c64":
            outs = [complex(np.complex64(o)) for o in outs]
        cases.append(run_case(op, "%s.%s.special" % (op, t), spec, "numpy",
                              t, vals, outs,
                              note="C99 Annex G values on the branch cut "
                                   "and at infinities"))
    if op == "sqrt":
        for t in h.COMPLEX:
            cases.append(h.Case(
                "sqrt.%s.negative_zero_imag" % t, spec, "hand",
                unary_module(op, t, 2), args=[h.literal(t, [
                    complex(-4, -0.0), complex(-1, -0.0)])],
                impl="sqrt below the branch cut: C99 gives (0, -2) for "
                     "(-4, -0), XLA's CPU backend (0, 2); the spec is "
                     "silent"))
    return cases


# --- exact unary ops ------------------------------------------------------


def float_inputs(t, values):
    return [v for v in values if h.representable(t, v)]


def exact_float_op(op, section, frag, fn, values_by_group, types,
                   int_fn=None, int_values=None, complex_fn=None,
                   complex_values=None, result_type=None, extra=None):
    spec = "%s :: %s" % (section, frag)
    cases = []
    for t in types:
        rt = result_type(t) if result_type else t
        if h.is_float(t):
            for group, vals in values_by_group.items():
                ins = []
                for v in float_inputs(t, vals):
                    if any(v == w and math.copysign(1, v) == math.copysign(
                            1, w) for w in ins) or (
                                math.isnan(v) and any(map(math.isnan, ins))):
                        continue
                    ins.append(v)
                outs = [fn(t, v) for v in ins]
                keep = [(i, o) for i, o in zip(ins, outs) if o is not None and
                        (rt == "pred" or h.representable(rt, o) or
                         (isinstance(o, float) and math.isnan(o)))]
                if not keep:
                    continue
                cases.append(run_case(
                    op, "%s.%s.%s" % (op, t, group), spec, "hand", t,
                    [k[0] for k in keep], [k[1] for k in keep], rt))
        elif h.is_int(t) and int_fn:
            lo, hi = h.int_range(t)
            ins = []
            for v in int_values(t):
                if lo <= v <= hi and v not in ins:
                    ins.append(v)
            cases.append(run_case(op, "%s.%s.values" % (op, t), spec, "hand",
                                  t, ins, [int_fn(t, v) for v in ins], rt))
        elif h.is_complex(t) and complex_fn:
            ins = complex_values
            # sign(z) = z / |z| is not correctly rounded in general: a few
            # ULPs per component, like the complex entries of the table.
            cases.append(run_case(op, "%s.%s.values" % (op, t), spec,
                                  "mpmath", t, ins,
                                  [complex_fn(t, z) for z in ins], rt,
                                  tolerance="ulp=2" if op == "sign" else None))
    if extra:
        cases += extra
    cases += rejects_for(op, section, frag, types, result_type)
    return cases


def int_edges(t):
    lo, hi = h.int_range(t)
    vals = [0, 1, -1, 2, -2, 5, -7, 100, -100, lo, hi, lo + 1, hi - 1]
    return [v for v in vals if lo <= v <= hi]


BASIC = [1.0, -1.0, 2.5, -2.5, 0.5, -0.5, 1.5, -1.75, 3.0, 6.0]
SPECIAL = [NAN, INF, -INF, 0.0, -0.0]


def extremes(t):
    if not h.is_float(t):
        return []
    fi = h.finfo(t)
    return [float(fi.max), -float(fi.max), float(fi.smallest_normal),
            -float(fi.smallest_normal)] + subnormals(t)



def add_extremes(op, section, frag, fn, types):
    """One case per float type with max/min-normal/subnormal inputs."""
    spec = "%s :: %s" % (section, frag)
    cases = []
    for t in types:
        if not h.is_float(t):
            continue
        ins = [v for v in extremes(t) if h.representable(t, v)]
        outs = [fn(t, v) for v in ins]
        keep = [(i, o) for i, o in zip(ins, outs) if o is not None and (
            isinstance(o, bool) or h.representable(t, o) or math.isnan(o))]
        if keep:
            cases.append(run_case(
                op, "%s.%s.extremes" % (op, t), spec, "hand", t,
                [k[0] for k in keep], [k[1] for k in keep],
                "pred" if op == "is-finite" else t))
    return cases


def neg_fn(t, v):
    r = -v
    if r == 0 and not h.has_neg_zero(t):
        return 0.0
    return r if h.representable(t, r) or math.isnan(r) else None


def abs_fn(t, v):
    return abs(v)


def sign_fn(t, v):
    if math.isnan(v):
        return NAN
    if v == 0:
        return v
    return 1.0 if v > 0 else -1.0


def afz(v):
    if math.isnan(v) or math.isinf(v):
        return v
    # Exact: floor(|v| + 0.5) in floating point rounds 0.49999999999999994
    # up to 1.
    from fractions import Fraction
    r = math.floor(Fraction(abs(v)) + Fraction(1, 2))
    return math.copysign(float(r), v)


def rne(v):
    if math.isnan(v) or math.isinf(v):
        return v
    return math.copysign(float(round(v)), v)


def ceil_fn(t, v):
    if math.isnan(v) or math.isinf(v):
        return v
    return math.copysign(float(math.ceil(v)), v)


def floor_fn(t, v):
    if math.isnan(v) or math.isinf(v):
        return v
    return math.copysign(float(math.floor(v)), v) if v != 0 else v


def real_float(t, v):
    return v


def imag_float(t, v):
    return 0.0


ROUND_TIES = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.25, -0.75,
              4.5, 5.5, 7.5, 1.25, -2.75]


def near_half(t):
    """The value just below 0.5 (rounds to 0 under every rounding), just
    below 1.5, and the halfway values at the end of the significand
    (2^(p-1) - 0.5 and 2^p - 1 in a p-bit significand)."""
    if t == "f8e8m0fnu":
        return []
    p = int(h.finfo(t).nmant) + 1
    vals = []
    for x in (0.5, 1.5):
        below = float(np.nextafter(np.float64(x), 0)) if t == "f64" else None
        if t != "f64":
            below = x - 2.0 ** (-p - (1 if x < 1 else 0))
        vals += [below, -below]
    vals += [2.0 ** (p - 1) - 0.5, -(2.0 ** (p - 1) - 0.5), 2.0 ** (p - 1) + 0.5,
             2.0 ** p - 1, 2.0 ** p]
    return [v for v in vals if h.representable(t, v)]


def rounding_cases():
    """ceil, floor, round-nearest-afz, round-nearest-even."""
    out = {}
    specs = {
        "ceil": ("Ceil", "Element-wise ceil", ceil_fn),
        "floor": ("Floor", "Element-wise floor", floor_fn),
        "round-nearest-afz": (
            "RoundNearestAfz",
            "Performs element-wise rounding towards the nearest integer, "
            "breaking ties away", lambda t, v: afz(v)),
        "round-nearest-even": (
            "RoundNearestEven", "Element-wise rounding, ties to the nearest "
            "even.", lambda t, v: rne(v)),
    }
    for op, (section, frag, fn) in specs.items():
        def checked(t, v, fn=fn):
            r = fn(t, v)
            return r if (math.isnan(r) or h.representable(t, r)) else None
        cases = exact_float_op(
            op, section, frag, checked,
            {"values": BASIC, "ties": ROUND_TIES, "special": SPECIAL},
            h.FLOATS)
        spec_edge = "%s :: %s" % (section, frag)
        for t in h.FLOATS:
            ins = near_half(t)
            outs = [checked(t, v) for v in ins]
            keep = [(i, o) for i, o in zip(ins, outs) if o is not None]
            if keep:
                cases.append(run_case(
                    op, "%s.%s.near_half" % (op, t), spec_edge, "hand", t,
                    [k[0] for k in keep], [k[1] for k in keep]))
        cases += add_extremes(op, section, frag, checked, h.FLOATS)
        if op == "round-nearest-afz":
            cases.append(run_case(
                op, "round-nearest-afz.f32.round_section", [
                    "Round :: Element-wise rounding, ties away from zero."],
                "hand", "f32", [0.5, -0.5, 2.5, -2.5, 2.4, -2.6],
                [1.0, -1.0, 3.0, -3.0, 2.0, -3.0]))
        out[op] = cases
    return out


def popcnt(t, v):
    return bin(v & ((1 << h.BITS[t]) - 1)).count("1")


def clz(t, v):
    b = h.BITS[t]
    u = v & ((1 << b) - 1)
    return b - u.bit_length()


def int_not(t, v):
    return h.wrap(t, ~v)


def int_neg(t, v):
    return h.wrap(t, -v)


def int_abs(t, v):
    return h.wrap(t, abs(v))


def int_sign(t, v):
    return (v > 0) - (v < 0)


def complex_abs(t, z):
    r = float(mpmath.hypot(z.real, z.imag))
    return float(np.float32(r)) if t == "c64" else r


def complex_sign(t, z):
    if z == 0:
        return 0j
    m = mpmath.hypot(z.real, z.imag)
    r = complex(float(z.real / m), float(z.imag / m))
    return complex(np.complex64(r)) if t == "c64" else r


def bits_ops():
    spec_p = "PopulationCount :: Computes the number of bits set in each " \
             "element of"
    spec_c = "Clz :: Element-wise count leading zeros."
    out = {"popcnt": [], "count-leading-zeros": []}
    for op, spec, fn in (("popcnt", spec_p, popcnt),
                         ("count-leading-zeros", spec_c, clz)):
        for t in h.INTS:
            lo, hi = h.int_range(t)
            vals = []
            for v in int_edges(t) + [3, 6, 0x55, 0x0F0F, 1 << 20]:
                if lo <= v <= hi and v not in vals:
                    vals.append(v)
            # The count is an element of the operand's type, so it wraps in
            # the types too narrow to hold it (s1, s2).
            out[op].append(run_case(op, "%s.%s.values" % (op, t), spec,
                                    "hand", t, vals,
                                    [h.wrap(t, fn(t, v)) for v in vals]))
        section, frag = spec.split(" :: ")
        out[op] += rejects_for(op, section, frag, h.INTS)
    return out



def add_shape_variants(op, cases):
    """Scalar, rank-3 and empty forms of the op's f32 (else s32, u8) case."""
    by_name = {c.name: c for c in cases}
    for t in ("f32", "s32", "u8"):
        c = by_name.get("%s.%s.values" % (op, t))
        if c is not None and c.expect is not None:
            return cases + h.shape_variants(c, c.spec)
    return cases

def main():
    files = {}
    for op in TRANSCENDENTAL:
        files[op] = transcendental_cases(op)
    files.update(rounding_cases())
    files.update(bits_ops())

    files["abs"] = exact_float_op(
        "abs", "Abs", "Element-wise abs", abs_fn,
        {"values": BASIC, "special": SPECIAL},
        h.SIGNED_FLOATS + ["f8e8m0fnu"] + h.SIGNED + h.COMPLEX,
        int_fn=int_abs, int_values=int_edges, complex_fn=complex_abs,
        complex_values=[3 + 4j, -5 + 12j, 0j, -2 + 0j, 1 + 1j],
        result_type=lambda t: {"c64": "f32", "c128": "f64"}.get(t, t),
        extra=add_extremes("abs", "Abs", "Element-wise abs", abs_fn,
                           h.FLOATS))
    files["negate"] = exact_float_op(
        "negate", "Neg", "Element-wise negation", neg_fn,
        {"values": BASIC, "special": SPECIAL},
        h.SIGNED_FLOATS + h.INTS + h.COMPLEX,
        int_fn=int_neg, int_values=int_edges,
        complex_fn=lambda t, z: -z,
        complex_values=[1 + 2j, -3.5 + 0j, 0.25 - 8j],
        extra=add_extremes("negate", "Neg", "Element-wise negation", neg_fn,
                           h.SIGNED_FLOATS))
    files["sign"] = exact_float_op(
        "sign", "Sign", "using the comparison operator of the element type",
        sign_fn, {"values": BASIC, "special": SPECIAL},
        h.SIGNED_FLOATS + h.SIGNED + h.COMPLEX,
        int_fn=int_sign, int_values=int_edges, complex_fn=complex_sign,
        complex_values=[3 + 4j, -5 + 12j, 0j, -2 + 0j, 0 + 7j],
        extra=add_extremes("sign", "Sign",
                           "using the comparison operator of the element type",
                           sign_fn, h.SIGNED_FLOATS))
    files["is-finite"] = exact_float_op(
        "is-finite", "IsFinite", "Tests whether each element of",
        lambda t, v: not (math.isnan(v) or math.isinf(v)),
        {"values": BASIC, "special": SPECIAL}, h.FLOATS,
        result_type=lambda t: "pred",
        extra=add_extremes("is-finite", "IsFinite",
                           "Tests whether each element of",
                           lambda t, v: True, h.FLOATS))
    files["not"] = exact_float_op(
        "not", "Not", "Element-wise logical not", None, {},
        ["pred"] + h.INTS, int_fn=int_not, int_values=int_edges) + [
            run_case("not", "not.pred.values",
                     "Not :: Element-wise logical not", "hand", "pred",
                     [True, False], [False, True])]
    files["real"] = exact_float_op(
        "real", "Real", "returns the same value.", real_float,
        {"values": BASIC, "special": SPECIAL}, h.FLOATS + h.COMPLEX,
        complex_fn=lambda t, z: z.real,
        complex_values=[1 + 2j, -3.5 - 0.25j, complex(NAN, 1),
                        complex(-INF, 2), complex(-0.0, 5)],
        result_type=lambda t: {"c64": "f32", "c128": "f64"}.get(t, t))
    files["imag"] = exact_float_op(
        "imag", "Imag", "operand is a floating point type, returns 0.",
        imag_float, {"values": BASIC, "special": SPECIAL},
        h.FLOATS + h.COMPLEX,
        complex_fn=lambda t, z: z.imag,
        complex_values=[1 + 2j, -3.5 - 0.25j, complex(1, NAN),
                        complex(2, -INF), complex(5, -0.0)],
        result_type=lambda t: {"c64": "f32", "c128": "f64"}.get(t, t))

    total = 0
    for op, cases in sorted(files.items()):
        cases = add_shape_variants(op, cases)
        h.write_file("elementwise", op, op, cases,
                     "Unary elementwise op `%s` (operation_semantics.md)." % op,
                     "gen_unary.py")
        total += len(cases)
        print("%-24s %4d" % (op, len(cases)))
    print("total", total)


if __name__ == "__main__":
    main()
