"""Generates spec_tests/elementwise/compare.hlotest: every direction, every
element type, the default comparison types and TOTALORDER
(operation_semantics.md, Compare and its Eq/Ne/Ge/Gt/Le/Lt subsections).

Expected values by hand: IEEE comparisons (every comparison with a NaN is
false except NE) and, for TOTALORDER, the order the spec states,
-NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf < +NaN, computed on the
sign-magnitude bit patterns (NaNs of one sign order by payload).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_compare.py
"""
import math
import operator

import numpy as np

import hlotest as h

NAN = float("nan")
INF = float("inf")

DIRECTIONS = {
    "EQ": ("Eq", "Performs element-wise **equal-to** comparison of",
           operator.eq),
    "NE": ("Ne", "Performs element-wise **not equal-to** comparison of",
           operator.ne),
    "GE": ("Ge", "Performs element-wise **greater-or-equal-than** comparison",
           operator.ge),
    "GT": ("Gt", "Performs element-wise **greater-than** comparison of",
           operator.gt),
    "LE": ("Le", "Performs element-wise **less-or-equal-than** comparison of",
           operator.le),
    "LT": ("Lt", "Performs element-wise **less-than** comparison of",
           operator.lt),
}
# Where each direction's TOTALORDER sentence is (the Gt variant is written
# in the Ge subsection of the spec).
TOTAL_SPEC = {
    "EQ": "Eq :: Support a total order over the floating point numbers "
          "exists for Eq, by",
    "NE": "Ne :: Support a total order over the floating point numbers "
          "exists for Ne, by",
    "GE": "Ge :: -NaN < -Inf < -Finite < -0 < +0 < +Finite < +Inf < +NaN",
    "GT": "Ge :: Support a total order over the floating point numbers "
          "exists for Gt, by",
    "LE": "Le :: Support a total order over the floating point numbers "
          "exists for Le, by",
    "LT": "Lt :: Support a total order over the floating point numbers "
          "exists for Lt, by",
}


def cmp_module(t, n, direction, ctype=None, rt_dims=None):
    attrs = ", direction=%s" % direction
    if ctype:
        attrs += ", type=%s" % ctype
    return h.module(["%s[%d]" % (t, n)] * 2, "pred[%d]" % n,
                    "compare(p0, p1)%s" % attrs)


def float_pairs(t):
    fi = h.finfo(t)
    big, tiny = float(fi.max), float(fi.smallest_subnormal)
    cand = [(1, 2), (2, 1), (2, 2), (-1, 1), (-1.5, -0.5), (0, -0.0),
            (-0.0, 0), (NAN, 1), (1, NAN), (NAN, NAN), (INF, INF),
            (-INF, INF), (INF, big), (-big, -INF), (tiny, 0), (-tiny, -0.0),
            (big, big), (0.5, 0.5)]
    return [(float(a), float(b)) for a, b in cand
            if h.representable(t, float(a)) and h.representable(t, float(b))
            and not (t == "f8e8m0fnu" and (a == 0 or b == 0))]


def int_pairs(t):
    lo, hi = h.int_range(t)
    cand = [(1, 2), (2, 1), (2, 2), (lo, hi), (hi, lo), (-1, 0), (lo, lo),
            (0, -1), (hi, hi), (0, 0), (hi, 0), (0, hi), (lo, 0), (-5, 3)]
    out = []
    for p in cand:
        if lo <= p[0] <= hi and lo <= p[1] <= hi and p not in out:
            out.append(p)
    return out


def ieee(fn, a, b):
    if math.isnan(a) or math.isnan(b):
        return fn is operator.ne
    return fn(a, b)


def total_key(t, v):
    """Sign-magnitude bit pattern of v in t as an ordered integer."""
    raw = int.from_bytes(h.bits_of(t, h.to_type(t, v)), "little")
    bits = h.BITS[t]
    sign = 1 << (bits - 1)
    if raw & sign:
        return -(raw & (sign - 1)) - 1
    return raw


def type_cases(direction):
    section, frag, fn = DIRECTIONS[direction]
    spec = "%s :: %s" % (section, frag)
    d = direction.lower()
    cases = []
    for t in h.ALL:
        if h.is_complex(t) and direction not in ("EQ", "NE"):
            continue
        if t == "pred":
            pairs = [(False, False), (False, True), (True, False),
                     (True, True)]
            outs = [fn(int(a), int(b)) for a, b in pairs]
        elif h.is_int(t):
            pairs = int_pairs(t)
            outs = [fn(a, b) for a, b in pairs]
        elif h.is_float(t):
            pairs = float_pairs(t)
            outs = [ieee(fn, a, b) for a, b in pairs]
        else:
            pairs = [(1 + 2j, 1 + 2j), (1 + 2j, 1 - 2j), (complex(NAN, 0),
                     complex(NAN, 0)), (0j, complex(-0.0, 0)),
                     (3 + 0j, 3 + 1j), (complex(INF, 1), complex(INF, 1))]
            outs = []
            for a, b in pairs:
                if any(map(math.isnan, (a.real, a.imag, b.real, b.imag))):
                    outs.append(fn is operator.ne)
                else:
                    outs.append(fn(a, b))
        cases.append(h.Case(
            "compare.%s.%s" % (d, t), spec, "hand",
            cmp_module(t, len(pairs), direction),
            args=[h.literal(t, [p[0] for p in pairs]),
                  h.literal(t, [p[1] for p in pairs])],
            expect=h.literal("pred", outs)))
    return cases


def total_order_cases(direction):
    _, _, fn = DIRECTIONS[direction]
    spec = TOTAL_SPEC[direction]
    d = direction.lower()
    cases = []
    for t in h.FLOATS:
        cand = [(-NAN, -INF), (NAN, INF), (-0.0, 0.0), (0.0, -0.0),
                (NAN, NAN), (-NAN, NAN), (-NAN, -NAN), (1.0, 1.0),
                (-1.0, 2.0), (INF, NAN), (-INF, -1.0), (-0.0, -0.0),
                (-1.0, -0.0), (0.5, 0.25)]
        pairs = []
        for a, b in cand:
            ok = all(h.representable(t, x) for x in (a, b))
            # Types whose only NaN is the negative-zero pattern (fnuz) or
            # without sign (f8e8m0fnu): only their numbers are ordered here.
            if (t in h.F8_FN[1:] or t == "f8e8m0fnu") and any(
                    math.isnan(x) or x == 0 for x in (a, b)):
                ok = False
            if ok:
                pairs.append((a, b))
        args = []
        for side in (0, 1):
            vals = []
            for p in pairs:
                v = p[side]
                vals.append(v)
            args.append(vals)
        outs = [fn(total_key(t, a), total_key(t, b)) for a, b in pairs]
        if not pairs:
            continue
        # `-nan` in the args is the negative quiet NaN.
        lits = [h.literal(t, v) for v in args]
        lits = [fix_neg_nan(t, a, vals) for a, vals in zip(lits, args)]
        cases.append(h.Case(
            "compare.%s.totalorder.%s" % (d, t), spec, "hand",
            cmp_module(t, len(pairs), direction, "TOTALORDER"),
            args=lits, expect=h.literal("pred", outs)))
    return cases


def fix_neg_nan(t, lit, vals):
    """literal() prints every NaN as `nan`; spell the negative ones."""
    parts = lit.split("{", 1)
    body = parts[1].rstrip("}")
    items = body.split(", ")
    out = []
    for item, v in zip(items, vals):
        if math.isnan(v):
            out.append("-nan" if math.copysign(1, v) < 0 else "nan")
        else:
            out.append(item)
    return parts[0] + "{" + ", ".join(out) + "}"


def explicit_type_cases():
    spec = "Compare :: Performs element-wise comparison of"
    cases = []
    for t, ctype, pairs, fn in (
            ("s32", "SIGNED", [(-1, 1), (2, 2)], operator.lt),
            ("u32", "UNSIGNED", [(4294967295, 1), (2, 2)], operator.lt),
            ("pred", "UNSIGNED", [(False, True), (True, True)], operator.lt),
            ("f32", "FLOAT", [(NAN, 1.0), (-0.0, 0.0)], None)):
        outs = [ieee(operator.lt, a, b) if fn is None else fn(a, b)
                for a, b in pairs]
        cases.append(h.Case(
            "compare.lt.explicit_%s.%s" % (ctype.lower(), t), spec, "hand",
            cmp_module(t, len(pairs), "LT", ctype),
            args=[h.literal(t, [p[0] for p in pairs]),
                  h.literal(t, [p[1] for p in pairs])],
            expect=h.literal("pred", outs)))
    # Broadcasting forms, for every direction (each subsection states them).
    for d, (section, _, fn) in DIRECTIONS.items():
        lo = d.lower()
        lhs, rhs = [1.0, 2.0, 3.0], 2.0
        cases.append(h.Case(
            "compare.%s.f32.broadcast_scalar" % lo,
            ["%s :: unless one of the operands is a scalar." % section,
             "%s :: The result of an operation has a shape which is the "
             "result of broadcasting the two input arrays." % section],
            "hand",
            h.module(["f32[3]", "f32[]"], "pred[3]",
                     "compare(p0, p1), direction=%s" % d),
            args=[h.literal("f32", lhs), h.literal("f32", rhs)],
            expect=h.literal("pred", [fn(x, rhs) for x in lhs])))
        a = [1, 2, 3, 1, 5, 3]
        b = [1, 5, 3]
        cases.append(h.Case(
            "compare.%s.s32.broadcast_dimensions" % lo,
            ["%s :: The additional broadcast_dimensions operand is a slice "
             "of integers specifying" % section,
             "%s :: This variant of the operation should be used for "
             "arithmetic operations between arrays of different ranks"
             % section], "hand",
            h.module(["s32[2,3]", "s32[3]"], "pred[2,3]",
                     "compare(p0, p1), direction=%s, "
                     "broadcast_dimensions={1}" % d),
            args=[h.literal("s32", a, [2, 3]), h.literal("s32", b)],
            expect=h.literal("pred", [fn(x, b[i % 3])
                                      for i, x in enumerate(a)], [2, 3])))
        cases.append(h.Case(
            "compare.reject.%s.rank_mismatch" % lo,
            "%s :: In this variant, operations between arrays of" % section,
            "hand", h.module(["f32[2,3]", "f32[3]"], "pred[2,3]",
                             "compare(p0, p1), direction=%s" % d),
            reject="verify broadcasting.md"))
        cases.append(h.Case(
            "compare.reject.%s.shape_mismatch" % lo,
            "%s :: The arguments' shapes have to be either similar or "
            "compatible." % section,
            "hand", h.module(["f32[2]", "f32[3]"], "pred[3]",
                             "compare(p0, p1), direction=%s" % d),
            reject="verify broadcasting.md"))
    return cases


def reject_cases():
    spec = "Compare :: Performs element-wise comparison of"
    rule = "verify operation_semantics.md, Compare"
    cases = []
    for name, params, attrs in (
            ("type_signed_on_f32", ["f32[2]"] * 2, "direction=LT, type=SIGNED"),
            ("type_unsigned_on_s32", ["s32[2]"] * 2,
             "direction=LT, type=UNSIGNED"),
            ("type_totalorder_on_s32", ["s32[2]"] * 2,
             "direction=LT, type=TOTALORDER"),
            ("type_float_on_u8", ["u8[2]"] * 2, "direction=EQ, type=FLOAT"),
            ("complex_lt", ["c64[2]"] * 2, "direction=LT"),
            ("complex_ge", ["c128[2]"] * 2, "direction=GE"),
            ("element_type_mismatch", ["f32[2]", "f16[2]"], "direction=EQ"),
            ("missing_direction", ["f32[2]"] * 2, None)):
        expr = "compare(p0, p1)" + (", " + attrs if attrs else "")
        cases.append(h.Case(
            "compare.reject.%s" % name, spec, "hand",
            h.module(params, "pred[2]", expr),
            reject=rule if name != "missing_direction" else
            "parse direction"))
    return cases


def main():
    cases = []
    for d in DIRECTIONS:
        cases += type_cases(d)
        cases += total_order_cases(d)
    by_name = {c.name: c for c in cases}
    for d in DIRECTIONS:
        c = by_name["compare.%s.f32" % d.lower()]
        cases += h.shape_variants(c, c.spec)
    cases += explicit_type_cases()
    cases += reject_cases()
    h.write_file("elementwise", "compare", "compare", cases,
                 "compare: every direction and element type, TOTALORDER.",
                 "gen_compare.py")
    print("compare", len(cases))


if __name__ == "__main__":
    main()
