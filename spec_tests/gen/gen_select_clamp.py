"""Generates spec_tests/elementwise/select.hlotest and clamp.hlotest
(operation_semantics.md, Select and Clamp): the spec's examples, every
element type, scalar pred / scalar bounds, tuples, and rejected shapes.

Expected values by hand: select copies on_true/on_false element by
element; clamp is the spec's formula clamp(a, x, b) = min(max(a, x), b)
(with maximum/minimum propagating NaN, as XLA does).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_select_clamp.py
"""
import math

import hlotest as h

NAN = float("nan")
INF = float("inf")


def sample(t, n=4):
    """n distinct, exactly representable values of t (edge values first)."""
    if t == "pred":
        return [True, False, True, False][:n]
    if h.is_int(t):
        lo, hi = h.int_range(t)
        vals = []
        for v in [lo, hi, 0, 1, -1, 2, 3]:
            if lo <= v <= hi and v not in vals:
                vals.append(v)
        while len(vals) < n:
            vals.append(vals[len(vals) % len(vals)])
        return vals[:n]
    if h.is_complex(t):
        return [1 + 2j, complex(NAN, 1), -0.5 - 0.25j, complex(INF, -INF)][:n]
    fi = h.finfo(t)
    vals = []
    for v in [NAN, -float(fi.max), float(fi.max), -0.0,
              float(fi.smallest_subnormal), 1.5, -2.0, 0.5, 2.0, 4.0]:
        if h.representable(t, v) and v not in vals and not (
                math.isnan(v) and any(map(math.isnan, vals))):
            vals.append(v)
    return vals[:n]


def select_cases():
    section = "Select"
    ex = "Select :: Example with non-scalar `pred`:"
    cases = [
        h.Case("select.s32.spec_example_nonscalar_pred", ex, "spec-example",
               h.module(["pred[4]", "s32[4]", "s32[4]"], "s32[4]",
                        "select(p0, p1, p2)"),
               args=["pred[4] {true, false, false, true}",
                     "s32[4] {1, 2, 3, 4}", "s32[4] {100, 200, 300, 400}"],
               expect="s32[4] {1, 200, 300, 4}"),
        h.Case("select.s32.spec_example_scalar_pred",
               "Select :: Example with scalar `pred`:", "spec-example",
               h.module(["pred[]", "s32[4]", "s32[4]"], "s32[4]",
                        "select(p0, p1, p2)"),
               args=["pred[] true", "s32[4] {1, 2, 3, 4}",
                     "s32[4] {100, 200, 300, 400}"],
               expect="s32[4] {1, 2, 3, 4}"),
        h.Case("select.s32.scalar_pred_false",
               "Select :: `pred` can be a scalar of type `PRED`. In this "
               "case, the output array is taken", "hand",
               h.module(["pred[]", "s32[4]", "s32[4]"], "s32[4]",
                        "select(p0, p1, p2)"),
               args=["pred[] false", "s32[4] {1, 2, 3, 4}",
                     "s32[4] {100, 200, 300, 400}"],
               expect="s32[4] {100, 200, 300, 400}"),
    ]
    pick = [True, False, False, True]
    for t in h.ALL:
        a = sample(t)
        b = list(reversed(a))
        if len(a) < 4:
            continue
        out = [x if p else y for p, x, y in zip(pick, a, b)]
        cases.append(h.Case(
            "select.%s.values" % t,
            "Select :: For each element `P` of `pred`, the corresponding "
            "element of the output array is", "hand",
            h.module(["pred[4]", "%s[4]" % t, "%s[4]" % t], "%s[4]" % t,
                     "select(p0, p1, p2)"),
            args=[h.literal("pred", pick), h.literal(t, a), h.literal(t, b)],
            expect=h.literal(t, out)))
    by_name = {c.name: c for c in cases}
    cases += h.shape_variants(by_name["select.f32.values"],
                              by_name["select.f32.values"].spec)
    cases.append(h.Case(
        "select.f32.rank2",
        "Select :: The array `pred` must have the same dimensionality as",
        "hand",
        h.module(["pred[2,3]", "f32[2,3]", "f32[2,3]"], "f32[2,3]",
                 "select(p0, p1, p2)"),
        args=[h.literal("pred", [True, False, True, False, False, True],
                        [2, 3]),
              h.literal("f32", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]),
              h.literal("f32", [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0], [2, 3])],
        expect=h.literal("f32", [1.0, -2.0, 3.0, -4.0, -5.0, 6.0], [2, 3])))
    tup = "(f32[2], s32[])"
    cases.append(h.Case(
        "select.tuple.scalar_pred",
        "Select :: Selections between tuples are supported. Tuples are "
        "considered to be scalar", "hand",
        "HloModule m\nENTRY e {\n  p0 = pred[] parameter(0)\n"
        "  a = f32[2] parameter(1)\n  b = s32[] parameter(2)\n"
        "  c = f32[2] parameter(3)\n  d = s32[] parameter(4)\n"
        "  t1 = %s tuple(a, b)\n  t2 = %s tuple(c, d)\n"
        "  ROOT r = %s select(p0, t1, t2)\n}" % (tup, tup, tup),
        args=["pred[] false", "f32[2] {1, 2}", "s32[] 3", "f32[2] {4, 5}",
              "s32[] 6"],
        expect="(f32[2] {4, 5}, s32[] 6)",
        note="client form (XlaBuilder); XLA's own HLO select takes arrays"))
    rule = "verify operation_semantics.md, Select"
    for name, params, spec in (
            ("pred_not_pred", ["s32[2]", "f32[2]", "f32[2]"],
             "Select :: with the `PRED` element type."),
            ("on_true_on_false_types", ["pred[2]", "f32[2]", "s32[2]"],
             "Select :: The arrays `on_true` and `on_false` must have the "
             "same shape."),
            ("on_true_on_false_dims", ["pred[2]", "f32[2]", "f32[3]"],
             "Select :: The arrays `on_true` and `on_false` must have the "
             "same shape."),
            ("pred_dims", ["pred[3]", "f32[2]", "f32[2]"],
             "Select :: The array `pred` must have the same dimensionality "
             "as"),
            ("pred_rank", ["pred[2,2]", "f32[2]", "f32[2]"],
             "Select :: The array `pred` must have the same dimensionality "
             "as")):
        result = params[1]
        r = rule if name in ("pred_not_pred", "on_true_on_false_types") \
            else "verify broadcasting.md"
        cases.append(h.Case("select.reject.%s" % name, spec, "hand",
                            h.module(params, result, "select(p0, p1, p2)"),
                            reject=r))
    tup = "(f32[2], s32[])"
    cases.append(h.Case(
        "select.reject.tuple_nonscalar_pred",
        "Select :: then `pred` has to be a scalar of type `PRED`.", "hand",
        "HloModule m\nENTRY e {\n  p0 = pred[2] parameter(0)\n"
        "  a = f32[2] parameter(1)\n  b = s32[] parameter(2)\n"
        "  t1 = %s tuple(a, b)\n"
        "  ROOT r = %s select(p0, t1, t1)\n}" % (tup, tup),
        reject=rule))
    return cases


def clamp_value(t, lo, x, hi):
    if h.is_float(t):
        if any(map(math.isnan, (lo, x, hi))):
            return NAN
    return min(max(lo, x), hi)


def clamp_cases():
    spec = ["Clamp :: That is, `clamp(a, x, b) = min(max(a, x), b)`.",
            "Clamp :: Clamps an operand to within the range between a "
            "minimum and maximum value."]
    cases = [h.Case(
        "clamp.s32.spec_example", "Clamp :: Example with scalar `min` and "
        "`max`:", "spec-example",
        h.module(["s32[]", "s32[3]", "s32[]"], "s32[3]", "clamp(p0, p1, p2)"),
        args=["s32[] 0", "s32[3] {-1, 5, 9}", "s32[] 6"],
        expect="s32[3] {0, 5, 6}")]
    for t in ["pred"] + h.INTS + h.FLOATS:
        if t == "pred":
            lo, xs, hi = False, [False, True], True
            trip = [(False, x, True) for x in xs] + [(True, False, True),
                                                      (False, True, False)]
        elif h.is_int(t):
            a, b = h.int_range(t)
            mid = [v for v in (-1, 0, 1, 2) if a <= v <= b]
            trip = [(a, b, mid[0]), (mid[0], a, b), (a, mid[-1], b),
                    (mid[-1], b, mid[-1]), (b, a, b)]
        else:
            fi = h.finfo(t)
            big = float(fi.max)
            trip = [(-1.0, -2.0, 1.0), (-1.0, 0.5, 1.0), (-1.0, 4.0, 1.0),
                    (-big, big, 0.5), (0.5, NAN, 1.0),
                    (NAN, 0.5, 1.0), (-INF, 2.0, INF), (1.0, 2.0, -1.0)]
            if t == "f8e8m0fnu":
                trip = [(0.5, 0.25, 2.0), (0.5, 1.0, 2.0), (0.5, 4.0, 2.0)]
            trip = [p for p in trip if all(h.representable(t, v)
                                            for v in p)]
        outs = [clamp_value(t, *p) for p in trip]
        note = None
        if h.is_float(t) and any(any(map(math.isnan, p)) for p in trip):
            note = "NaN in any input gives NaN: maximum/minimum propagate NaN"
        cases.append(h.Case(
            "clamp.%s.values" % t, spec, "hand",
            h.module(["%s[%d]" % (t, len(trip))] * 3, "%s[%d]" % (
                t, len(trip)), "clamp(p0, p1, p2)"),
            args=[h.literal(t, [p[0] for p in trip]),
                  h.literal(t, [p[1] for p in trip]),
                  h.literal(t, [p[2] for p in trip])],
            expect=h.literal(t, outs), note=note))
    by_name = {c.name: c for c in cases}
    cases += h.shape_variants(by_name["clamp.s32.values"],
                              by_name["clamp.s32.values"].spec)
    for t, lo, xs, hi in (("f32", -1.0, [-3.0, 0.25, 7.0], 2.0),
                          ("u8", 10, [0, 10, 255], 200),
                          ("s64", -5, [-9, 0, 9], 5)):
        outs = [min(max(lo, x), hi) for x in xs]
        cases.append(h.Case(
            "clamp.%s.scalar_bounds" % t,
            "Clamp :: `min` and/or `max` can be a scalar of type `T`.",
            "hand",
            h.module(["%s[]" % t, "%s[3]" % t, "%s[]" % t], "%s[3]" % t,
                     "clamp(p0, p1, p2)"),
            args=[h.literal(t, lo), h.literal(t, xs), h.literal(t, hi)],
            expect=h.literal(t, outs)))
    cases.append(h.Case(
        "clamp.f32.scalar_min_array_max",
        "Clamp :: `min` and/or `max` can be a scalar of type `T`.", "hand",
        h.module(["f32[]", "f32[3]", "f32[3]"], "f32[3]",
                 "clamp(p0, p1, p2)"),
        args=["f32[] 0", "f32[3] {-1, 5, 9}", "f32[3] {1, 2, 10}"],
        expect="f32[3] {0, 2, 9}"))
    rule = "verify operation_semantics.md, Clamp"
    for name, params in (
            ("element_types", ["f32[3]", "s32[3]", "f32[3]"]),
            ("complex", ["c64[3]", "c64[3]", "c64[3]"])):
        cases.append(h.Case(
            "clamp.reject.%s" % name, "Clamp :: array of type T", "hand",
            h.module(params, params[1], "clamp(p0, p1, p2)"), reject=rule))
    cases.append(h.Case(
        "clamp.reject.shapes",
        "Clamp :: All three arrays must be the same shape.", "hand",
        h.module(["f32[2]", "f32[3]", "f32[3]"], "f32[3]",
                 "clamp(p0, p1, p2)"), reject="verify broadcasting.md"))
    return cases


def main():
    s = select_cases()
    c = clamp_cases()
    h.write_file("elementwise", "select", "select", s,
                 "select (operation_semantics.md, Select).",
                 "gen_select_clamp.py")
    h.write_file("elementwise", "clamp", "clamp", c,
                 "clamp (operation_semantics.md, Clamp).",
                 "gen_select_clamp.py")
    print("select", len(s), "clamp", len(c))


if __name__ == "__main__":
    main()
