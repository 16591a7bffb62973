"""Generates spec_tests/elementwise/<op>.hlotest for the binary elementwise
ops of operation_semantics.md (add ... xor, shifts, complex).

Expected values:
  * floats: the exact result computed in float64 (for +, -, *, / and fmod
    of types up to 25 significand bits, float64 then one correct rounding
    to the type gives the correctly rounded result), rounded with
    hlotest.to_type; float64 itself with numpy's IEEE float64 ops;
    pow and atan2 with mpmath, their special values from C99 Annex F
    (numpy's float64 power/arctan2);
  * integers: Python integers wrapped to the type's two's complement
    width, division and remainder truncating toward zero;
  * shifts by >= the bit width (the spec is silent): XLA's behaviour,
    checked through jax (see README.md).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_binary.py
"""
import math

import mpmath
import numpy as np

import hlotest as h

mpmath.mp.prec = 200
np.seterr(all="ignore")  # IEEE overflow and invalid results are intended
NAN = float("nan")
INF = float("inf")

BCAST_SCALAR = "unless one of the operands is a scalar."
BCAST_DIMS = "The additional broadcast_dimensions operand is a slice of " \
             "integers specifying"
RANKS = "In this variant, operations between arrays of"
RESULT_SHAPE = "The result of an operation has a shape which is the result " \
               "of broadcasting the two input arrays."
BCAST_VARIANT = "This variant of the operation should be used for " \
                "arithmetic operations between arrays of different ranks"


def rounded(t, x):
    if isinstance(x, float) and math.isnan(x):
        return NAN
    if t == "f64":
        return float(x)
    return float(h.to_type(t, x))


def fits(t, exact, r):
    """Keep a float result only where its value is defined for t."""
    if math.isnan(exact):
        return h.has_nan(t)
    if math.isinf(r):
        return h.has_inf(t)
    if abs(exact) > float(h.finfo(t).max):
        return h.has_inf(t)
    if t == "f8e8m0fnu" and (exact <= 0):
        return False
    if r == 0 and math.copysign(1, r) < 0 and not h.has_neg_zero(t):
        return False
    return True


# --- float reference functions (float64 in, exact-or-float64 out) -------


def f_add(a, b):
    return float(np.float64(a) + np.float64(b))


def f_sub(a, b):
    return float(np.float64(a) - np.float64(b))


def f_mul(a, b):
    return float(np.float64(a) * np.float64(b))


def f_div(a, b):
    with np.errstate(all="ignore"):
        return float(np.float64(a) / np.float64(b))


def f_rem(a, b):
    with np.errstate(all="ignore"):
        return float(np.fmod(np.float64(a), np.float64(b)))


def f_max(a, b):
    if math.isnan(a) or math.isnan(b):
        return NAN
    return max(a, b)


def f_min(a, b):
    if math.isnan(a) or math.isnan(b):
        return NAN
    return min(a, b)


def f_pow(a, b):
    special = (math.isnan(a) or math.isnan(b) or math.isinf(a) or
               math.isinf(b) or a == 0 or b == 0 or a < 0)
    with np.errstate(all="ignore"):
        c99 = float(np.power(np.float64(a), np.float64(b)))
    if special:
        return c99
    return float(mpmath.power(mpmath.mpf(a), mpmath.mpf(b)))


def f_atan2(a, b):
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(
            b) or a == 0 or b == 0:
        return float(np.arctan2(np.float64(a), np.float64(b)))
    return float(mpmath.atan2(mpmath.mpf(a), mpmath.mpf(b)))


# --- integer reference functions ----------------------------------------


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def i_rem(a, b):
    return a - trunc_div(a, b) * b


def i_pow(a, b):
    return a ** b


def shl(t, a, b):
    bits = h.BITS[t]
    return 0 if b < 0 or b >= bits else h.wrap(t, a << b)


def sra(t, a, b):
    """Arithmetic shift of the bit pattern: the top bit fills, also for
    unsigned types (XLA shifts their bits as if signed)."""
    bits = h.BITS[t]
    s = a - (1 << bits) if a >= 1 << (bits - 1) else a  # as signed
    if b < 0 or b >= bits:
        r = -1 if s < 0 else 0
    else:
        r = s >> b  # Python's >> is arithmetic
    return h.wrap(t, r)


def srl(t, a, b):
    bits = h.BITS[t]
    if b < 0 or b >= bits:
        return 0
    u = a & ((1 << bits) - 1)
    return h.wrap(t, u >> b)


# --- value sets -----------------------------------------------------------


def float_pairs(op, t):
    fi = h.finfo(t)
    big = float(fi.max)
    tiny = float(fi.smallest_subnormal)
    norm = float(fi.smallest_normal)
    eps = float(fi.eps)
    groups = {}
    if op in ("add", "subtract", "multiply", "divide", "remainder",
              "maximum", "minimum"):
        groups["values"] = [(1, 2), (-1.5, 0.5), (2.5, -2.5), (3, 0.25),
                            (-0.5, -0.75), (6, -1), (0.5, 4), (-3, 1.5)]
        if op == "remainder":
            groups["values"] = [(5, 3), (-5, 3), (5, -3), (-5, -3),
                                (6, 4), (1.5, 0.5), (3.5, 1), (-6, 1.5)]
        groups["special"] = [(NAN, 1), (1, NAN), (INF, 1), (INF, -INF),
                             (-INF, -INF), (0, -0.0), (-0.0, -0.0),
                             (INF, INF), (0, 0), (-1, INF), (1, 0),
                             (-1, 0), (0, INF), (NAN, NAN)]
        groups["extremes"] = [(big, big), (big, -big), (-big, -big),
                              (tiny, tiny), (tiny, -tiny), (norm, -tiny),
                              (norm, 0.5), (tiny, 0.5), (big, 0.5),
                              (big, 2), (-tiny, 0.25)]
        # Ties in the result's rounding: 1 + eps/2 is halfway between 1
        # and 1 + eps (to even: 1); 1 + 3 eps/2 is halfway between
        # 1 + eps and 1 + 2 eps (to even: 1 + 2 eps).
        groups["rounding"] = [(1, eps / 2), (1 + eps, eps / 2),
                              (1, eps / 4), (1 + eps, 1 + eps),
                              (3, 1 + eps), (1, 3)]
        if op in ("maximum", "minimum"):
            groups["special"] = [p for p in groups["special"]
                                 if not (p[0] == 0 and p[1] == 0)]
    elif op == "power":
        groups["values"] = [(2, 3), (4, 0.5), (2, -2), (1.5, 2), (3, 0.5),
                            (0.5, 3), (6, 0.5), (2, 0.25)]
        groups["special"] = [(NAN, 0), (1, NAN), (0, 3), (-0.0, 3), (0, -1),
                             (-0.0, -1), (-2, 3), (-2, 0.5), (INF, -1),
                             (-INF, 3), (-1, INF), (0.5, INF), (2, -INF),
                             (NAN, 1), (1, INF), (-0.0, 2)]
    elif op == "atan2":
        groups["values"] = [(1, 1), (1, -1), (-1, -1), (-1, 1), (2, 0.5),
                            (0.5, 3), (-3, 2), (6, -4)]
        groups["special"] = [(0, 1), (-0.0, 1), (0, -1), (-0.0, -1),
                             (0, 0), (0, -0.0), (-0.0, -0.0), (1, 0),
                             (-1, 0), (INF, 1), (1, INF), (1, -INF),
                             (INF, INF), (-INF, -INF), (NAN, 1), (1, NAN)]
    out = {}
    for g, pairs in groups.items():
        keep = []
        for a, b in pairs:
            a, b = float(a), float(b)
            if h.representable(t, a) and h.representable(t, b):
                keep.append((a, b))
        if keep:
            out[g] = keep
    return out


def int_pairs(op, t):
    lo, hi = h.int_range(t)
    if op in ("shift-left", "shift-right-arithmetic", "shift-right-logical"):
        b = h.BITS[t]
        cand = [(1, 0), (1, 1), (3, 1), (lo, 1), (hi, 1), (-1, 1), (5, 2),
                (-8, 2), (1, b - 1), (-1, b - 1), (hi, b - 2)]
        big = [(1, b), (-1, b), (hi, b), (lo, b + 1), (3, 2 * b + 3),
               (hi, b + 1), (lo + 1 if lo else hi - 1, b),
               (-5, 127 if hi >= 127 else hi), (1, -1), (-8, -1)]
        return {"values": _in_range(cand, lo, hi),
                "shift_overflow": _in_range(big, lo, hi)}
    if op == "divide":
        cand = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (1, 5), (0, 3),
                (hi, 1), (lo, 1), (hi, hi), (lo, 2), (lo + 1, -1), (2, 1)]
    elif op == "remainder":
        cand = [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (1, 5), (0, 3),
                (hi, 2), (lo, 3), (hi, hi), (lo, -lo - 1 if lo else 1),
                (3, 1), (2, 3)]
    elif op == "power":
        cand = [(2, 3), (3, 2), (-2, 3), (-3, 2), (0, 0), (5, 0), (0, 3),
                (1, 7), (-1, 7), (-1, 8), (2, 62), (3, 40), (hi, 2),
                (2, b_minus(t)), (1, 0), (7, 1)]
    elif op in ("and", "or", "xor"):
        cand = [(0, 0), (0, hi), (hi, hi), (lo, hi), (5, 3), (12, 10),
                (-1, 6), (lo, -1), (hi, lo), (0x55, 0x0F), (1, 1)]
    else:
        cand = [(1, 2), (-3, 5), (hi, 1), (lo, -1), (hi, hi), (lo, lo),
                (0, 0), (7, -7), (lo, 1), (hi, lo), (100, 100), (-100, 3),
                (2, 1)]
    return {"values": _in_range(cand, lo, hi)}


def b_minus(t):
    return h.BITS[t] - 1


def _in_range(pairs, lo, hi):
    out = []
    for p in pairs:
        if lo <= p[0] <= hi and lo <= p[1] <= hi and p not in out:
            out.append(p)
    return out


# --- ops -----------------------------------------------------------------

OPS = {
    # op: (section, fragment, types, float fn, int fn, source of floats)
    "add": ("Add", "Performs element-wise addition of",
            ["pred"] + h.INTS + h.FLOATS + h.COMPLEX, f_add,
            lambda t, a, b: h.wrap(t, a + b), "numpy"),
    "subtract": ("Sub", "Performs element-wise subtraction of",
                 h.INTS + h.FLOATS + h.COMPLEX, f_sub,
                 lambda t, a, b: h.wrap(t, a - b), "numpy"),
    "multiply": ("Mul", "Performs element-wise product of",
                 ["pred"] + h.INTS + h.FLOATS + h.COMPLEX, f_mul,
                 lambda t, a, b: h.wrap(t, a * b), "numpy"),
    "divide": ("Div", "Performs element-wise division of dividend",
               h.INTS + h.FLOATS + h.COMPLEX, f_div,
               lambda t, a, b: h.wrap(t, trunc_div(a, b)), "numpy"),
    "remainder": ("Rem", "The sign of the result is taken from the dividend",
                  h.INTS + h.FLOATS, f_rem,
                  lambda t, a, b: h.wrap(t, i_rem(a, b)), "numpy"),
    "maximum": ("Max", "Performs element-wise max operation on tensors",
                ["pred"] + h.INTS + h.FLOATS, f_max,
                lambda t, a, b: max(a, b), "hand"),
    "minimum": ("Min", "Performs element-wise min operation on",
                ["pred"] + h.INTS + h.FLOATS, f_min,
                lambda t, a, b: min(a, b), "hand"),
    "power": ("Pow", "Performs element-wise exponentiation of",
              h.INTS + h.FLOATS + h.COMPLEX, f_pow,
              lambda t, a, b: h.wrap(t, i_pow(a, b)), "mpmath"),
    "atan2": ("Atan2", "Performs element-wise atan2 operation on",
              h.FLOATS, f_atan2, None, "mpmath"),
    "and": ("And", "Performs element-wise AND of two tensors",
            ["pred"] + h.INTS, None, lambda t, a, b: h.wrap(t, a & b),
            "hand"),
    "or": ("Or", "Performs element-wise OR of",
           ["pred"] + h.INTS, None, lambda t, a, b: h.wrap(t, a | b), "hand"),
    "xor": ("Xor", "Performs element-wise XOR of",
            ["pred"] + h.INTS, None, lambda t, a, b: h.wrap(t, a ^ b),
            "hand"),
    "shift-left": ("ShiftLeft", "Performs element-wise left-shift operation",
                   h.INTS, None, shl, "hand"),
    "shift-right-arithmetic": (
        "ShiftRightArithmetic",
        "Performs element-wise arithmetic right-shift operation on", h.INTS,
        None, sra, "hand"),
    "shift-right-logical": (
        "ShiftRightLogical",
        "Performs element-wise logical right-shift operation on", h.INTS,
        None, srl, "hand"),
}

# Element types the type rule accepts but no valued case covers yet
# (no rejection case is generated for them).
ACCEPTED_BEYOND_CASES = {
    "remainder": ("c64",), "maximum": ("c64",), "minimum": ("c64",),
    "atan2": ("c64",),
}

PRED_FN = {  # XLA's pred arithmetic: add is or, multiply is and.
    "add": lambda a, b: a or b, "multiply": lambda a, b: a and b,
    "maximum": lambda a, b: a or b, "minimum": lambda a, b: a and b,
    "and": lambda a, b: a and b, "or": lambda a, b: a or b,
    "xor": lambda a, b: a != b,
}

COMPLEX_PAIRS = {
    "add": [(1 + 2j, 3 - 4j), (-0.5 + 0j, 0.25 + 8j), (complex(INF, 1), 1j)],
    "subtract": [(1 + 2j, 3 - 4j), (-0.5 + 0j, 0.25 + 8j), (5j, 5j)],
    "multiply": [(1 + 2j, 3 - 4j), (2j, 2j), (-1 + 1j, 0.5 + 0j),
                 (3 + 0j, -2 + 1j)],
    "divide": [(4 + 2j, 1 + 1j), (-8 + 0j, 2j), (10 + 5j, 3 - 4j),
               (1 + 0j, 0 + 1j), (6 + 3j, 3 + 0j)],
    # No component of a result is (near) zero: pow is exp(b log a), and a
    # component that cancels to ~0 has no meaningful ULP distance.
    "power": [(1 + 1j, 0.5 + 0j), (3 + 4j, 0.5 + 0j), (0.5 + 1j, 1 + 1j),
              (2 + 1j, 3 + 0j)],
}


def bin_module(op, t, n, rt=None, rhs_shape=None, attrs=""):
    lhs = "%s[%d]" % (t, n)
    return h.module([lhs, rhs_shape or lhs], "%s[%d]" % (rt or t, n),
                    "%s(p0, p1)%s" % (op, attrs))


def run_case(op, name, spec, source, t, pairs, outs, rt=None, note=None):
    rt = rt or t
    return h.Case(name, spec, source, bin_module(op, t, len(pairs), rt),
                  args=[h.literal(t, [p[0] for p in pairs]),
                        h.literal(t, [p[1] for p in pairs])],
                  expect=h.literal(rt, outs), note=note)


def float_cases(op, spec, t, fn, source):
    cases = []
    for group, pairs in float_pairs(op, t).items():
        keep, outs = [], []
        for a, b in pairs:
            exact = fn(a, b)
            if op == "remainder" and math.isinf(b) and not math.isinf(a):
                exact = a  # fmod(x, +-inf) = x
            r = rounded(t, exact)
            if not fits(t, exact, r):
                continue
            if t == "f8e8m0fnu" and r != exact:
                continue  # rounding to f8e8m0fnu is not specified
            keep.append((a, b))
            outs.append(r)
        if not keep:
            continue
        src = "numpy" if group == "special" else source
        note = None
        if group == "rounding":
            note = "ties: round to nearest even in the result type"
        cases.append(run_case(op, "%s.%s.%s" % (op, t, group), spec, src, t,
                              keep, outs, note=note))
    return cases


def int_cases(op, spec, t, fn):
    cases = []
    section = spec.split(" :: ")[0]
    for group, pairs in int_pairs(op, t).items():
        keep, outs, impl = [], [], []
        for a, b in pairs:
            if op in ("divide", "remainder") and (
                    b == 0 or (h.is_signed(t) and a == h.int_range(t)[0] and
                               b == -1)):
                impl.append((a, b))
                continue
            if op == "power" and b < 0:
                continue
            keep.append((a, b))
            outs.append(fn(t, a, b))
        if keep:
            note = None
            source = "hand"
            sp = spec
            if group == "shift_overflow":
                note = ("shift amounts outside [0, bit width) (the spec is "
                        "silent): XLA gives 0 for shift-left and "
                        "shift-right-logical and the sign fill for "
                        "shift-right-arithmetic")
                source = "jax"
            cases.append(run_case(op, "%s.%s.%s" % (op, t, group), sp,
                                  source, t, keep, outs, note=note))
    if op in ("divide", "remainder"):
        lo, hi = h.int_range(t)
        div_spec = "Div :: Integer division overflow (signed/unsigned " \
                   "division/remainder by zero or signed"
        by_zero = [(1, 0), (0, 0), (hi, 0)] + ([(-1, 0)] if lo < 0 else [])
        by_zero = _in_range(by_zero, lo, hi)
        cases.append(h.Case(
            "%s.%s.by_zero" % (op, t), div_spec, "hand",
            bin_module(op, t, len(by_zero)),
            args=[h.literal(t, [p[0] for p in by_zero]),
                  h.literal(t, [p[1] for p in by_zero])],
            impl="integer %s by zero" % op))
        if h.is_signed(t) and t != "s1":
            cases.append(h.Case(
                "%s.%s.min_by_minus_one" % (op, t), div_spec, "hand",
                bin_module(op, t, 1),
                args=[h.literal(t, [lo]), h.literal(t, [-1])],
                impl="signed %s of INT_MIN by -1" % op))
    if op == "power":
        neg = _in_range([(2, -1), (1, -3), (-1, -3), (0, -1)], *h.int_range(t))
        if neg:
            cases.append(h.Case(
                "power.%s.negative_exponent" % t, spec, "hand",
                bin_module(op, t, len(neg)),
                args=[h.literal(t, [p[0] for p in neg]),
                      h.literal(t, [p[1] for p in neg])],
                impl="integer power with a negative exponent (the spec is "
                     "silent)"))
    return cases


def complex_cases(op, spec, t):
    pairs = COMPLEX_PAIRS.get(op)
    if not pairs:
        return []
    outs = []
    for a, b in pairs:
        if op == "power":
            r = mpmath.power(mpmath.mpc(a.real, a.imag),
                             mpmath.mpc(b.real, b.imag))
            o = complex(float(mpmath.re(r)), float(mpmath.im(r)))
        elif op == "divide":
            r = mpmath.mpc(a.real, a.imag) / mpmath.mpc(b.real, b.imag)
            o = complex(float(mpmath.re(r)), float(mpmath.im(r)))
        else:
            o = {"add": a + b, "subtract": a - b, "multiply": a * b}[op]
        if t == "c64":
            o = complex(np.complex64(o))
        outs.append(o)
    return [run_case(op, "%s.%s.values" % (op, t), spec,
                     "mpmath" if op == "power" else "hand", t, pairs, outs)]


def pred_cases(op, spec):
    pairs = [(False, False), (False, True), (True, False), (True, True)]
    fn = PRED_FN[op]
    note = None if op in ("and", "or", "xor") else (
        "pred arithmetic follows XLA: add and maximum are or, multiply and "
        "minimum are and")
    return [run_case(op, "%s.pred.values" % op, spec,
                     "hand" if note is None else "jax", "pred", pairs,
                     [fn(a, b) for a, b in pairs], note=note)]


def shape_cases(op, section, types):
    """Broadcasting forms and rejected shapes/types."""
    t = "f32" if "f32" in types else "s32"
    vals = [1, 2, 3]
    scalar = 2
    fn = OPS[op][3] if t == "f32" else OPS[op][4]
    if t == "f32":
        outs = [rounded(t, fn(float(v), float(scalar))) for v in vals]
    else:
        outs = [fn(t, v, scalar) for v in vals]
    src = OPS[op][5] if t == "f32" else "hand"
    cases = [h.Case(
        "%s.%s.broadcast_scalar" % (op, t),
        ["%s :: %s" % (section, BCAST_SCALAR), "%s :: %s" % (
            section, RESULT_SHAPE)], src,
        h.module(["%s[3]" % t, "%s[]" % t], "%s[3]" % t, "%s(p0, p1)" % op),
        args=[h.literal(t, vals), h.literal(t, scalar)],
        expect=h.literal(t, outs))]
    lhs = [1, 2, 3, 4, 5, 6]
    rhs = [1, 2, 3]
    if t == "f32":
        outs = [rounded(t, fn(float(a), float(rhs[i % 3])))
                for i, a in enumerate(lhs)]
    else:
        outs = [fn(t, a, rhs[i % 3]) for i, a in enumerate(lhs)]
    cases.append(h.Case(
        "%s.%s.broadcast_dimensions" % (op, t),
        ["%s :: %s" % (section, BCAST_DIMS), "%s :: %s" % (
            section, BCAST_VARIANT)], src,
        h.module(["%s[2,3]" % t, "%s[3]" % t], "%s[2,3]" % t,
                 "%s(p0, p1), broadcast_dimensions={1}" % op),
        args=[h.literal(t, lhs, [2, 3]), h.literal(t, rhs)],
        expect=h.literal(t, outs, [2, 3])))
    cases.append(h.Case(
        "%s.reject.rank_mismatch" % op, ["%s :: %s" % (section, RANKS)],
        "hand", h.module(["%s[2,3]" % t, "%s[3]" % t], "%s[2,3]" % t,
                         "%s(p0, p1)" % op),
        reject="verify broadcasting.md"))
    cases.append(h.Case(
        "%s.reject.shape_mismatch" % op,
        ["%s :: The arguments' shapes have to be either similar or "
         "compatible." % section], "hand",
        h.module(["%s[2]" % t, "%s[3]" % t], "%s[3]" % t, "%s(p0, p1)" % op),
        reject="verify broadcasting.md"))
    other = "s32" if t != "s32" else "u32"
    cases.append(h.Case(
        "%s.reject.element_type_mismatch" % op,
        ["%s :: Left-hand-side operand: array of type T" % section], "hand",
        h.module(["%s[2]" % t, "%s[2]" % other], "%s[2]" % t,
                 "%s(p0, p1)" % op),
        reject="verify operation_semantics.md, %s" % section))
    for bad in ["pred", "s32", "u8", "f32", "c64", "s4", "bf16"]:
        if bad in types or bad in ACCEPTED_BEYOND_CASES.get(op, ()):
            continue
        cases.append(h.Case(
            "%s.reject.%s" % (op, bad),
            ["%s :: Left-hand-side operand: array of type T" % section],
            "hand", h.module(["%s[2]" % bad, "%s[2]" % bad], "%s[2]" % bad,
                             "%s(p0, p1)" % op),
            reject="verify operation_semantics.md, %s" % section))
    return cases


def op_cases(op):
    section, frag, types, ffn, ifn, fsource = OPS[op]
    spec = "%s :: %s" % (section, frag)
    cases = []
    for t in types:
        if t == "pred":
            cases += pred_cases(op, spec)
        elif h.is_int(t):
            cases += int_cases(op, spec, t, ifn)
        elif h.is_float(t):
            cases += float_cases(op, spec, t, ffn, fsource)
        else:
            cases += complex_cases(op, spec, t)
    if op in ("maximum", "minimum"):
        for t in ["f32", "f64", "f16", "bf16"]:
            cases.append(h.Case(
                "%s.%s.signed_zeros" % (op, t), spec, "hand",
                bin_module(op, t, 2),
                args=[h.literal(t, [0.0, -0.0]), h.literal(t, [-0.0, 0.0])],
                impl="%s of +0 and -0: the spec does not order the zeros "
                     "(XLA's CPU backend treats -0 < +0)" % op))
    cases += shape_cases(op, section, types)
    return cases


def complex_op_cases():
    section = "Complex"
    spec = "Complex :: Performs element-wise conversion to a complex value " \
           "from a pair of real and"
    spec = "Complex :: Performs element-wise conversion to a complex value from"
    cases = []
    for t, ct in (("f32", "c64"), ("f64", "c128")):
        pairs = [(1, 2), (-0.5, 0.0), (0.0, -0.0), (NAN, 1), (INF, -INF),
                 (3.25, -7)]
        cases.append(run_case(
            "complex", "complex.%s.values" % t, spec, "hand", t,
            [(float(a), float(b)) for a, b in pairs],
            [complex(float(a), float(b)) for a, b in pairs], rt=ct))
        cases.append(h.Case(
            "complex.%s.broadcast_scalar" % t,
            ["%s :: %s" % (section, BCAST_SCALAR),
             "%s :: %s" % (section, RESULT_SHAPE)], "hand",
            h.module(["%s[3]" % t, "%s[]" % t], "%s[3]" % ct,
                     "complex(p0, p1)"),
            args=[h.literal(t, [1.0, 2.0, 3.0]), h.literal(t, 0.5)],
            expect=h.literal(ct, [1 + 0.5j, 2 + 0.5j, 3 + 0.5j])))
    for bad in ["f16", "bf16", "s32", "c64"]:
        rt = "c64"
        cases.append(h.Case(
            "complex.reject.%s" % bad, spec, "hand",
            h.module(["%s[2]" % bad, "%s[2]" % bad], "%s[2]" % rt,
                     "complex(p0, p1)"),
            reject="verify operation_semantics.md, Complex"))
    cases.append(h.Case(
        "complex.reject.element_type_mismatch",
        ["Complex :: Left-hand-side operand: array of type T"], "hand",
        h.module(["f32[2]", "f64[2]"], "c64[2]", "complex(p0, p1)"),
        reject="verify operation_semantics.md, Complex"))
    return cases



def add_shape_variants(op, cases):
    """Scalar, rank-3 and empty forms of the op's f32 (else s32, u8) case."""
    by_name = {c.name: c for c in cases}
    for t in ("f32", "s32", "u8"):
        c = by_name.get("%s.%s.values" % (op, t))
        if c is not None and c.expect is not None:
            return cases + h.shape_variants(c, c.spec)
    return cases

def main():
    total = 0
    files = {op: op_cases(op) for op in OPS}
    files["complex"] = complex_op_cases()
    for op, cases in sorted(files.items()):
        cases = add_shape_variants(op, cases)
        h.write_file("elementwise", op, op, cases,
                     "Binary elementwise op `%s` (operation_semantics.md)."
                     % op, "gen_binary.py")
        total += len(cases)
        print("%-24s %4d" % (op, len(cases)))
    print("total", total)


if __name__ == "__main__":
    main()
