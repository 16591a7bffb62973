"""Generates the conversion cases (operation_semantics.md,
ConvertElementType, BitcastConvertType, ReducePrecision):

  spec_tests/elementwise/convert_from_{pred,int,float,complex}.hlotest
  spec_tests/elementwise/bitcast-convert.hlotest
  spec_tests/elementwise/reduce-precision.hlotest

Expected values:
  * convert: integers wrap modulo 2^bits (C++20 static_cast); int -> float
    and float -> float round to nearest, ties to even
    (hlotest.to_type, exact); float -> int truncates toward zero where the
    truncated value fits; NaN, +-inf and out-of-range float -> int are
    implementation-defined cases (the spec: "The precise float-to-int
    ... conversions are currently unspecified"); X -> pred is X != 0;
  * bitcast-convert: numpy/ml_dtypes reinterpretation of the bytes
    (little-endian for the width-changing cases, see README.md);
  * reduce-precision: round-to-nearest-even to the given significand width
    (exact, with fractions), overflow to +-inf; values below the reduced
    format's smallest normal become +-0 as XLA does (checked with jax).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_convert.py
"""
from fractions import Fraction
import math

import numpy as np

import hlotest as h

NAN = float("nan")
INF = float("inf")

CONVERT = "ConvertElementType :: Similar to an element-wise"
INT_TO_FLOAT = ("ConvertElementType :: conversion routine such as "
                "round-to-nearest-even.")
UNSPECIFIED = ("ConvertElementType :: The precise float-to-int and "
               "visa-versa conversions are currently")


# --- convert ---------------------------------------------------------------


def source_values(s):
    if s == "pred":
        return [False, True]
    if h.is_int(s):
        lo, hi = h.int_range(s)
        out = []
        for v in [0, 1, -1, 2, 7, 100, -100, 1000, -3, lo, hi]:
            if lo <= v <= hi and v not in out:
                out.append(v)
        return out
    if h.is_complex(s):
        vals = [1 + 2j, -0.5 + 0j, complex(-0.0, 3), 65504 - 1j,
                complex(INF, NAN), 1e-3 + 1e20j]
        return [complex(h.DTYPE[s](v)) for v in vals]
    fi = h.finfo(s)
    cand = [0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 0.5, 3.0, 6.0, 0.25, 100.0,
            -7.75, 1e5, 65504.0, NAN, INF, -INF, float(fi.max),
            -float(fi.max), float(fi.smallest_subnormal),
            float(fi.smallest_normal), 2.0 ** 40]
    out = []
    for v in cand:
        if h.representable(s, v) and not any(
                v == w and math.copysign(1, v) == math.copysign(1, w)
                for w in out) and not (math.isnan(v) and any(
                    map(math.isnan, out))):
            out.append(v)
    return out


def float_value(d, x):
    """Converts exact number x (int/float) to float type d; returns
    (value, ok) where ok is False if the result is not specified."""
    if isinstance(x, float) and math.isnan(x):
        return NAN, h.has_nan(d)
    if isinstance(x, float) and math.isinf(x):
        return x, h.has_inf(d)
    if d == "f8e8m0fnu":
        fx = float(x)
        if fx <= 0 or math.frexp(fx)[0] != 0.5:
            return None, False
        ok = float(h.finfo(d).smallest_normal) <= fx <= float(h.finfo(d).max)
        return fx, ok
    if h.is_int(d) or d == "pred":
        raise AssertionError
    if isinstance(x, int):
        # Integers round once, exactly, to the type's significand width
        # (float(x) alone would round big ones to double first).
        x = round_int(x, int(h.finfo(d).nmant) + 1)
    fx = float(x)
    if abs(fx) > float(h.finfo(d).max):
        r = float(h.to_type(d, fx)) if d in ("f16", "f32", "f64") else (
            h.round_narrow(d, fx))
        if r is None or not math.isinf(r):
            return (r, r is not None) if r is not None else (None, False)
        return r, h.has_inf(d)
    if fx == 0 and math.copysign(1, fx) < 0 and not h.has_neg_zero(d):
        return 0.0, True  # the type's only zero
    r = float(h.to_type(d, fx))
    return r, not math.isnan(r)


def round_int(x, sigbits):
    """x rounded to sigbits significant bits, ties to even (exact)."""
    n = abs(x).bit_length()
    if n <= sigbits:
        return x
    shift = n - sigbits
    q, r = divmod(abs(x), 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return (q << shift) * (1 if x > 0 else -1)


def convert_value(s, d, v):
    """(expected, kind): kind is 'ok', 'impl' (unspecified) or 'skip'."""
    if d == "pred":
        if h.is_complex(s):
            return None, "skip"
        return bool(v != 0 or (isinstance(v, float) and math.isnan(v))), "ok"
    if s == "pred":
        v = int(v)
    if h.is_complex(d):
        comp = "f32" if d == "c64" else "f64"
        c = complex(v)
        re_, ok1 = float_value(comp, c.real)
        im_, ok2 = float_value(comp, c.imag)
        return complex(re_, im_), "ok" if ok1 and ok2 else "skip"
    if h.is_complex(s):
        return None, "skip"
    if h.is_int(d):
        if isinstance(v, float):
            if math.isnan(v) or math.isinf(v):
                return None, "impl"
            t = math.trunc(v)
            lo, hi = h.int_range(d)
            if not lo <= t <= hi:
                return None, "impl"
            return t, "ok"
        return h.wrap(d, int(v)), "ok"
    r, ok = float_value(d, v)
    return r, "ok" if ok else "skip"


def convert_module(s, d, n):
    return h.module(["%s[%d]" % (s, n)], "%s[%d]" % (d, n), "convert(p0)")


def rounding_inputs(s, d):
    """Inputs of float/int type s exactly halfway between two neighbours
    of float type d, and just above halfway (ties to even, sticky bits)."""
    if d in ("f8e8m0fnu", "pred") or not h.is_float(d):
        return []
    out = []
    if h.is_float(s):
        if s == "f8e8m0fnu" or h.BITS[s] <= h.BITS[d] and s != "bf16":
            return []
        grid = [1.0]
        fi = h.finfo(d)
        eps = float(fi.eps)
        for a in (1.0, 1.0 + eps):
            mid = a + eps / 2
            for x in (mid, -mid, mid + eps / 8):
                if h.representable(s, x) and x not in out:
                    out.append(x)
        return out
    if h.is_int(s):
        p = int(round(-math.log2(float(h.finfo(d).eps))))  # fraction bits
        lo, hi = h.int_range(s)
        for x in (2 ** (p + 1) + 1, 2 ** (p + 1) + 3, -(2 ** (p + 1) + 1)):
            if lo <= x <= hi:
                out.append(x)
    return out


def double_rounding_inputs(s, d):
    """Values of s a hair above the midpoint of two neighbours of d, by
    less than the precision of an intermediate type between s and d."""
    if not h.is_float(d) or d == "f8e8m0fnu" or d == "f64":
        return []
    eps_d = float(h.finfo(d).eps)
    if s == "f64" and d != "f32":
        return [1 + eps_d / 2 + 2.0 ** -40, -(1 + eps_d / 2 + 2.0 ** -40),
                3 * (1 + eps_d / 2) + 2.0 ** -38]
    if s == "f64" and d == "f32":
        return [1 + 2.0 ** -24 + 2.0 ** -60, -(1 + 2.0 ** -24 + 2.0 ** -60)]
    if s == "f32" and h.BITS[d] <= 8:
        # Through f16 (11 significant bits) the 2^-20 would be lost.
        return [1 + eps_d / 2 + 2.0 ** -20, -(1 + eps_d / 2 + 2.0 ** -20)]
    if s in ("s64", "u64") and d in ("f32", "f16", "bf16"):
        p = int(h.finfo(d).nmant) + 1
        big = 2 ** 60 if d == "f32" else 2 ** 40
        mid = big + 2 ** (int(math.log2(big)) - p)
        return [mid + 1] + ([-(mid + 1)] if s == "s64" else [])
    if s in ("s32", "u32") and h.BITS[d] <= 16:
        p = int(h.finfo(d).nmant) + 1
        big = 2 ** 20 if d != "bf16" else 2 ** 30
        if h.BITS[d] == 8 or d in h.SUB8:
            big = 2 ** 10
        mid = big + 2 ** (int(math.log2(big)) - p)
        vals = [mid + 1] + ([-(mid + 1)] if s == "s32" else [])
        return [v for v in vals if float(h.finfo(d).max) > abs(v)]
    return []


def convert_cases_from(s):
    cases = []
    for d in h.ALL:
        if d == s:
            continue
        if h.is_complex(s) and not h.is_complex(d):
            continue
        ins, outs, impl = [], [], []
        for v in source_values(s):
            r, kind = convert_value(s, d, v)
            if kind == "ok":
                ins.append(v)
                outs.append(r)
            elif kind == "impl":
                impl.append(v)
        if h.is_float(s) and h.is_int(d):
            # Fractions truncate toward zero (static_cast).
            for v in (2.75, -2.75, 0.5, -0.5, 1.25):
                r, kind = convert_value(s, d, v)
                if h.representable(s, v) and kind == "ok" and v not in ins:
                    ins.append(v)
                    outs.append(r)
        spec = INT_TO_FLOAT if (h.is_int(s) and h.is_float(d)) else CONVERT
        if ins:
            cases.append(h.Case(
                "convert.%s.%s.values" % (s, d), spec, "hand",
                convert_module(s, d, len(ins)), args=[h.literal(s, ins)],
                expect=h.literal(d, outs)))
        rin = rounding_inputs(s, d)
        rin = [x for x in rin if convert_value(s, d, x)[1] == "ok"]
        if rin:
            cases.append(h.Case(
                "convert.%s.%s.ties" % (s, d), INT_TO_FLOAT, "hand",
                convert_module(s, d, len(rin)), args=[h.literal(s, rin)],
                expect=h.literal(d, [convert_value(s, d, x)[0]
                                     for x in rin]),
                note="halfway inputs round to the even neighbour"))
        dr = double_rounding_inputs(s, d)
        dr = [x for x in dr if convert_value(s, d, x)[1] == "ok"]
        if dr:
            cases.append(h.Case(
                "convert.%s.%s.double_rounding" % (s, d), INT_TO_FLOAT,
                "hand", convert_module(s, d, len(dr)),
                args=[h.literal(s, dr)],
                expect=h.literal(d, [convert_value(s, d, x)[0] for x in dr]),
                note="just above halfway by less than an ulp of the "
                     "intermediate type: converting through float32 (or "
                     "float64 for integers) would round twice and go down"))
        if impl and d in ("s8", "s32", "s64", "u8", "u32", "u64", "s4",
                          "u16"):
            cases.append(h.Case(
                "convert.%s.%s.unspecified" % (s, d), UNSPECIFIED, "hand",
                convert_module(s, d, len(impl)), args=[h.literal(s, impl)],
                impl="float -> int of NaN, +-inf or a value out of range "
                     "(XLA saturates to the integer range and maps NaN to 0)"))
    return cases


def convert_extra():
    cases = [h.Case(
        "convert.s32.f32.spec_example",
        "ConvertElementType :: let b: f32[3] = convert(a, f32);",
        "spec-example", convert_module("s32", "f32", 3),
        args=["s32[3] {0, 1, 2}"], expect="f32[3] {0, 1, 2}")]
    rule = "verify operation_semantics.md, ConvertElementType"
    cases.append(h.Case(
        "convert.reject.dims", ["ConvertElementType :: The dimensions of the "
        "operand and the target shape must match.", "ConvertElementType :: "
        "The dimensions must match, and the conversion is an element-wise "
        "one"], "hand",
        h.module(["s32[3]"], "f32[4]", "convert(p0)"), reject=rule))
    cases.append(h.Case(
        "convert.reject.tuple_target",
        "ConvertElementType :: destination element types must not be "
        "tuples.", "hand",
        h.module(["s32[3]"], "(f32[3])", "convert(p0)"), reject=rule))
    cases.append(h.Case(
        "convert.reject.tuple_source",
        "ConvertElementType :: destination element types must not be "
        "tuples.", "hand",
        "HloModule m\nENTRY e {\n  p0 = (s32[3]) parameter(0)\n"
        "  ROOT r = f32[3] convert(p0)\n}", reject=rule))
    cases.append(h.Case(
        "convert.reject.complex_to_real", CONVERT, "hand",
        h.module(["c64[2]"], "f32[2]", "convert(p0)"), reject=rule,
        note="as XLA: complex -> real is refused; real and imag extract"))
    return cases


# --- bitcast-convert --------------------------------------------------------

BITCAST = "BitcastConvertType :: performs an element-wise bitcast"
WIDTHS = {}
for _t in h.ALL:
    if _t not in ("pred",):
        WIDTHS.setdefault(h.BITS[_t], []).append(_t)


def pattern_values(t):
    """(bit pattern -> value) for every pattern of a type <= 16 bits, else
    a function."""
    bits = h.BITS[t]
    if h.is_int(t):
        return lambda p: h.wrap(t, p)
    if bits < 8:
        raw = np.arange(1 << bits, dtype=np.uint8)
        vals = raw.view(h.DTYPE[t])
        return lambda p: float(vals[p])
    udt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    return lambda p: np.array([p], dtype=udt).view(h.DTYPE[t])[0]



def bitcast_patterns(bits):
    m = (1 << bits) - 1
    cand = [0, 1, m, m >> 1, 1 << (bits - 1), 0x3C00, 0x3F800000, 0x4049,
            0x12345678, 0x3FF0000000000000, 0x40, 0x3, 0xA5A5A5A5A5A5A5A5,
            0x2]
    out = []
    for p in cand:
        p &= m
        if p not in out:
            out.append(p)
    return out


def bitcast_same_width():
    cases = []
    for bits, types in sorted(WIDTHS.items()):
        for s in types:
            for d in types:
                if s == d or h.is_complex(s) or h.is_complex(d):
                    continue
                to_s, to_d = pattern_values(s), pattern_values(d)
                ins, outs = [], []
                for p in bitcast_patterns(bits):
                    a, b = to_s(p), to_d(p)
                    # Only patterns that are numbers in both types: a NaN
                    # payload has no spelling shared by every reader.
                    if h.is_float(s) and not np.isfinite(float(a)):
                        if not (math.isinf(float(a))):
                            continue
                    if h.is_float(d) and not np.isfinite(float(b)):
                        if not (math.isinf(float(b))):
                            continue
                    ins.append(a)
                    outs.append(b)
                if not ins:
                    continue
                cases.append(h.Case(
                    "bitcast-convert.%s.%s.values" % (s, d), BITCAST,
                    "numpy", h.module(["%s[%d]" % (s, len(ins))],
                                      "%s[%d]" % (d, len(ins)),
                                      "bitcast-convert(p0)"),
                    args=[h.literal(s, ins)], expect=h.literal(d, outs)))
    return cases



def bitcast_width_changes():
    section = "Bitcast-converting to primitive type of different width"
    narrow = "%s :: the output shape gets a new minor-most dimension of " \
             "size" % section
    wide = "%s :: the instruction requires the last logical dimension" \
           % section
    note = ("the bytes of one element in the host's little-endian order; "
            "the spec leaves the order to the machine")
    cases = []
    for s, d, vals in (("f32", "f16", [1.0, -2.5, 65504.0]),
                       ("s32", "s8", [0x01020304, -1, 258]),
                       ("u32", "u8", [0xDEADBEEF, 1, 0x80000000]),
                       ("f64", "f32", [1.0, -0.1, 3.0e38]),
                       ("s64", "s16", [0x0001000200030004, -2]),
                       ("f32", "bf16", [1.0, 3.140625]),
                       ("s16", "u8", [-2, 0x1234]),
                       ("u64", "f32", [0x3F80000040000000])):
        ratio = h.BITS[s] // h.BITS[d]
        raw = np.array(vals, dtype=h.DTYPE[s]).tobytes()
        outs = list(np.frombuffer(raw, dtype=h.DTYPE[d]))
        n = len(vals)
        sp = [narrow]
        if (s, d) == ("s32", "s8"):
            sp.append("BitcastConvertType :: one `s32` element will become "
                      "four `s8` elements.")
        cases.append(h.Case(
            "bitcast-convert.%s.%s.narrower" % (s, d), sp, "numpy",
            h.module(["%s[%d]" % (s, n)], "%s[%d,%d]" % (d, n, ratio),
                     "bitcast-convert(p0)"),
            args=[h.literal(s, vals)],
            expect=h.literal(d, outs, [n, ratio]), note=note))
        cases.append(h.Case(
            "bitcast-convert.%s.%s.wider" % (d, s), wide, "numpy",
            h.module(["%s[%d,%d]" % (d, n, ratio)], "%s[%d]" % (s, n),
                     "bitcast-convert(p0)"),
            args=[h.literal(d, outs, [n, ratio])],
            expect=h.literal(s, vals), note=note))
        # Machine-independent: there and back is the identity.
        cases.append(h.Case(
            "bitcast-convert.%s.%s.round_trip" % (s, d), BITCAST, "hand",
            h.module(["%s[%d]" % (s, n)], "%s[%d]" % (s, n),
                     "bitcast-convert(m)",
                     extra="m = %s[%d,%d] bitcast-convert(p0)" % (
                         d, n, ratio)),
            args=[h.literal(s, vals)], expect=h.literal(s, vals)))
    # Effective scalar (the spec's example f32[] -> f16[2]).
    raw = np.array([1.0], dtype=np.float32).tobytes()
    cases.append(h.Case(
        "bitcast-convert.f32.f16.scalar",
        "%s :: The rule remains the same for effective scalars:" % section,
        "numpy", h.module(["f32[]"], "f16[2]", "bitcast-convert(p0)"),
        args=["f32[] 1"],
        expect=h.literal("f16", list(np.frombuffer(raw, np.float16))),
        note=note))
    rule = "verify operation_semantics.md, Bitcast"
    for name, params, result, spec in (
            ("wider_bad_last_dim", "f16[10,3]", "f32[10]", wide),
            ("wider_scalar", "f16[]", "f32[]", wide),
            ("narrower_dims", "f32[10]", "f16[10,3]", narrow),
            ("same_width_dims", "f32[4]", "s32[5]",
             "BitcastConvertType :: The dimensions of the operand and the "
             "target shape must match,"),
            ("tuple", "(f32[2])", "(s32[2])",
             "BitcastConvertType :: The source and destination element types "
             "must not be tuples.")):
        cases.append(h.Case(
            "bitcast-convert.reject.%s" % name, spec, "hand",
            "HloModule m\nENTRY e {\n  p0 = %s parameter(0)\n"
            "  ROOT r = %s bitcast-convert(p0)\n}" % (params, result),
            reject=rule))
    return cases


# --- reduce-precision -------------------------------------------------------

RP = "ReducePrecision :: The input values are rounded to the nearest"
RP_RANGE = ("ReducePrecision :: semantics), and any values that exceed the "
            "range specified by the number of")


def reduce_precision(x, e, m, t):
    """Round to nearest even at m significand bits, exponent range of an
    e-bit IEEE exponent; below the smallest normal: +-0 (XLA)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    tb = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}[t]
    m = min(m, tb[1])
    emax = (1 << (e - 1)) - 1
    emin = 1 - emax
    ax = Fraction(abs(x))
    exp = math.frexp(abs(x))[1] - 1  # 2^exp <= |x| < 2^(exp+1)
    type_emin = 2 - (1 << (tb[0] - 1))
    if e >= tb[0]:
        # The exponent part is a no-op: the type's own subnormals keep
        # their fixed spacing (the significand bits are rounded in place).
        exp = max(exp, type_emin)
    scale = Fraction(2) ** (exp - m)
    q = ax / scale
    fl = math.floor(q)
    rem = q - fl
    # The last kept bit decides a tie; with m = 0 that is the lowest
    # exponent bit of the encoding (type bias 2^(k-1)-1 is odd).
    odd = fl % 2 == 1 if m > 0 else (exp + (1 << (tb[0] - 1)) - 1) % 2 == 1
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and odd):
        fl += 1
    r = fl * scale
    sign = -1.0 if x < 0 else 1.0
    if e < tb[0]:
        maxv = (2 - Fraction(2) ** -m) * Fraction(2) ** emax
        if r > maxv:
            return sign * INF
        if r < Fraction(2) ** emin:
            return sign * 0.0
    elif r > Fraction(float(h.finfo(t).max)):
        return sign * INF  # rounding up past the type's largest value
    return sign * float(r)


def reduce_precision_cases():
    cases = []
    for t in ("f32", "f64", "f16", "bf16"):
        for e, m in ((5, 10), (8, 7), (4, 3), (5, 2), (3, 1), (8, 23),
                     (11, 52), (2, 0)):
            cand = [1.0, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 1 + 2.0 ** -8,
                    1 + 3 * 2.0 ** -8, 65504.0, 65520.0, 1e-5, 1e-40, 0.1,
                    -0.0, NAN, INF, -INF, 3.0, -1.75, 240.0, 1e30, 448.0,
                    0.3]
            vals = [v for v in cand if h.representable(t, v)]
            outs = [reduce_precision(float(h.to_type(t, v)), e, m, t)
                    for v in vals]
            cases.append(h.Case(
                "reduce-precision.%s.e%dm%d" % (t, e, m),
                [RP, RP_RANGE], "hand",
                h.module(["%s[%d]" % (t, len(vals))], "%s[%d]" % (t,
                                                                 len(vals)),
                         "reduce-precision(p0), exponent_bits=%d, "
                         "mantissa_bits=%d" % (e, m)),
                args=[h.literal(t, vals)], expect=h.literal(t, outs),
                note="values below the smallest normal of the reduced "
                     "format become +-0 (the spec is silent; XLA flushes)"))
    cases.append(h.Case(
        "reduce-precision.f16.exceeds_type",
        "ReducePrecision :: portion of the conversion is then simply a "
        "no-op.", "hand",
        h.module(["f16[4]"], "f16[4]",
                 "reduce-precision(p0), exponent_bits=8, mantissa_bits=23"),
        args=["f16[4] {0.1, 6e-08, 65504, -0.333}"],
        expect="f16[4] {0.1, 6e-08, 65504, -0.333}"))
    rule = "verify operation_semantics.md, ReducePrecision"
    for name, e, m in (("no_exponent_bits", 0, 10),
                       ("negative_mantissa_bits", 5, -1)):
        cases.append(h.Case(
            "reduce-precision.reject.%s" % name,
            "ReducePrecision :: The lower-precision format must have at "
            "least one exponent bit", "hand",
            h.module(["f32[2]"], "f32[2]",
                     "reduce-precision(p0), exponent_bits=%d, "
                     "mantissa_bits=%d" % (e, m)), reject=rule))
    cases.append(h.Case(
        "reduce-precision.reject.s32", "ReducePrecision :: array of "
        "floating-point type `T`.", "hand",
        h.module(["s32[2]"], "s32[2]",
                 "reduce-precision(p0), exponent_bits=5, mantissa_bits=10"),
        reject=rule))
    return cases


def main():
    groups = {"pred": ["pred"], "int": h.INTS, "float": h.FLOATS,
              "complex": h.COMPLEX}
    total = 0
    for g, srcs in groups.items():
        cases = []
        for s in srcs:
            cases += convert_cases_from(s)
        if g == "int":
            cases += convert_extra()
        h.write_file("elementwise", "convert_from_%s" % g, "convert", cases,
                     "convert from %s element types to every type." % g,
                     "gen_convert.py")
        print("convert_from_%s" % g, len(cases))
        total += len(cases)
    b = bitcast_same_width() + bitcast_width_changes()
    h.write_file("elementwise", "bitcast-convert", "bitcast-convert", b,
                 "bitcast-convert: same width and width-changing.",
                 "gen_convert.py")
    r = reduce_precision_cases()
    h.write_file("elementwise", "reduce-precision", "reduce-precision", r,
                 "reduce-precision.", "gen_convert.py")
    print("bitcast-convert", len(b), "reduce-precision", len(r))
    print("total", total + len(b) + len(r))


if __name__ == "__main__":
    main()
