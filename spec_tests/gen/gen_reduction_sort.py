"""Generates spec_tests/reduction/<op>.hlotest for map, sort (variadic,
stability, TOTALORDER), topk and scan (operation_semantics.md).

Expected values: the spec's worked examples, else computed here in plain
Python (sorted() is stable; exact arithmetic rounded once to the element
type; scan steps run in the spec's order).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_reduction_sort.py
"""
import numpy as np

import hlotest as h
import structured_util as u
from gen_reduction import case, reject

FAMILY = "reduction"
GEN = "gen_reduction_sort.py"


# --- map ---------------------------------------------------------------------

M_DEF = ("Map :: Applies a scalar function over the given `operands` arrays, "
         "producing an array")
M_TYPE = ("Map :: The output has the same dimensions as the operands except "
          "that the element type T is replaced")
M_EX = ("Map :: maps `elem_out <- computation(elem1, elem2, elem3, par1)` at "
        "each (multi-dimensional) index")


def map_cases():
    cases = []
    for t in h.ALL:
        op = "add" if h.is_complex(t) else "maximum"
        fn = u.binop(op, t)
        a, b = u.arr(t, [2, 3]), u.arr(t, [2, 3], 2)
        out = np.array([fn(x, y) for x, y in zip(a.flat, b.flat)],
                       dtype=object).reshape(2, 3)
        cases.append(case(
            "map.%s.%s" % (t, op), M_DEF, "hand",
            u.module([u.scalar_comp("f", t, op)],
                     [u.shp(t, [2, 3])] * 2, u.shp(t, [2, 3]),
                     "map(p0, p1), dimensions={0,1}, to_apply=f"),
            [u.lit(t, a), u.lit(t, b)], u.lit(t, out)))
    fma = """fma {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  z = f32[] parameter(2)
  m = f32[] multiply(x, y)
  ROOT s = f32[] add(m, z)
}"""
    cases.append(case(
        "map.f32.three_operands", M_EX, "hand",
        u.module([fma], ["f32[4]"] * 3, "f32[4]",
                 "map(p0, p1, p2), dimensions={0}, to_apply=fma"),
        ["f32[4] {1, 2, -3, 0.5}", "f32[4] {4, 0.25, 2, -8}",
         "f32[4] {1, 1, 1, 1}"], "f32[4] {5, 1.5, -5, -3}"))
    cmp = u.scalar_comp("lt", "s32", "compare(a, b), direction=LT",
                        out_t="pred")
    cases.append(case(
        "map.s32.to_pred", M_TYPE, "hand",
        u.module([cmp], ["s32[2,2]"] * 2, "pred[2,2]",
                 "map(p0, p1), dimensions={0,1}, to_apply=lt"),
        ["s32[2,2] { {1, 5}, {-3, 7} }", "s32[2,2] { {2, 5}, {-4, 8} }"],
        "pred[2,2] { {true, false}, {false, true} }"))
    neg = """neg {
  x = s8[] parameter(0)
  ROOT n = s8[] negate(x)
}"""
    cases.append(case(
        "map.s8.unary", M_DEF, "hand",
        u.module([neg], ["s8[4]"], "s8[4]",
                 "map(p0), dimensions={0}, to_apply=neg"),
        ["s8[4] {1, -128, 127, 0}"], "s8[4] {-1, -128, -127, 0}"))
    cases.append(case(
        "map.f32.empty", M_DEF, "hand",
        u.module([u.scalar_comp("f", "f32", "add")], ["f32[0,2]"] * 2,
                 "f32[0,2]", "map(p0, p1), dimensions={0,1}, to_apply=f"),
        ["f32[0,2] {  }", "f32[0,2] {  }"], "f32[0,2] {  }"))
    cases.append(reject(
        "map.reject.arity",
        "Map :: The mapped function is an arbitrary computation with the "
        "restriction that it has",
        u.module([u.scalar_comp("f", "f32", "add")], ["f32[4]"], "f32[4]",
                 "map(p0), dimensions={0}, to_apply=f"),
        "operation_semantics.md, Map"))
    cases.append(reject(
        "map.reject.operand_dims",
        "Map :: Applies a scalar function over the given `operands` arrays",
        u.module([u.scalar_comp("f", "f32", "add")], ["f32[4]", "f32[3]"],
                 "f32[4]", "map(p0, p1), dimensions={0}, to_apply=f"),
        "operation_semantics.md, Map"))
    return cases


# --- sort --------------------------------------------------------------------

SO_1D = ("Sort :: If the operand is a 1-dimensional tensor (an array), the "
         "result is a sorted")
SO_ND = ("Sort :: If the operand has higher number of dimensions, the "
         "operand is sorted along")
SO_EX = ("Sort :: For example, if there are three operands `operand0 = [3, "
         "1]`,")
SO_STABLE = ("Sort :: If `is_stable` is set to true, the sort is guaranteed "
             "to be stable")
SO_TUPLE = ("Sort :: All operands are sorted together, not individually.")
SO_TIE = ("Sort :: possibly use other parameter pairs as tie breakers.")


def lt_comp(name, t, n=1, key=0, direction="LT", cmp_type=None):
    lines = ["%s {" % name]
    for i in range(2 * n):
        lines.append("  p%d = %s[] parameter(%d)" % (i, t[i // 2] if
                     isinstance(t, list) else t, i))
    extra = ", type=%s" % cmp_type if cmp_type else ""
    lines.append("  ROOT c = pred[] compare(p%d, p%d), direction=%s%s"
                 % (2 * key, 2 * key + 1, direction, extra))
    lines.append("}")
    return "\n".join(lines)


def sort_cases():
    cases = []
    comp = lt_comp("cmp", ["s32", "s32", "f32"], 3)
    cases.append(case(
        "sort.s32_s32_f32.spec_example", [SO_EX, SO_TUPLE], "spec-example",
        u.module([comp], ["s32[2]", "s32[2]", "f32[2]"],
                 "(s32[2], s32[2], f32[2])",
                 "sort(p0, p1, p2), dimensions={0}, to_apply=cmp"),
        ["s32[2] {3, 1}", "s32[2] {42, 50}", "f32[2] {-3, 1.1}"],
        "(s32[2] {1, 3}, s32[2] {50, 42}, f32[2] {1.1, -3})"))
    for t in u.ORDERED + h.COMPLEX:
        vals = u.distinct(t, 6)
        perm = [3, 0, 5, 1, 4, 2][:len(vals)] if len(vals) >= 6 else \
            list(reversed(range(len(vals))))
        perm = [p for p in perm if p < len(vals)]
        x = [vals[p] for p in perm]
        if h.is_complex(t):
            part = "f32" if t == "c64" else "f64"
            comp = """cmp {
  a = %s[] parameter(0)
  b = %s[] parameter(1)
  ra = %s[] real(a)
  rb = %s[] real(b)
  ROOT c = pred[] compare(ra, rb), direction=LT
}""" % (t, t, part, part)
            exp = sorted(x, key=lambda c: c.real)
        else:
            comp = lt_comp("cmp", t)
            exp = sorted(x)
        cases.append(case(
            "sort.%s.ascending" % t, SO_1D, "hand",
            u.module([comp], [u.shp(t, [len(x)])], u.shp(t, [len(x)]),
                     "sort(p0), dimensions={0}, to_apply=cmp"),
            [h.literal(t, x)], h.literal(t, exp)))
        if t in h.INTS and len(pool_t := u.pool(t)) <= 4:
            # Few values: duplicates sort next to each other.
            y = [pool_t[i % len(pool_t)] for i in [1, 0, 1, 1, 0, 1]]
            cases.append(case(
                "sort.%s.duplicates" % t, SO_1D, "hand",
                u.module([lt_comp("cmp", t)], [u.shp(t, [6])],
                         u.shp(t, [6]),
                         "sort(p0), dimensions={0}, to_apply=cmp"),
                [h.literal(t, y)], h.literal(t, sorted(y))))
    for t in h.INTS:
        lo, hi = h.int_range(t)
        x = [v for v in [0, hi, lo, 1, hi, lo] if lo <= v <= hi]
        cases.append(case(
            "sort.%s.extremes" % t, SO_1D, "hand",
            u.module([lt_comp("cmp", t)], [u.shp(t, [len(x)])],
                     u.shp(t, [len(x)]),
                     "sort(p0), dimensions={0}, to_apply=cmp"),
            [h.literal(t, x)], h.literal(t, sorted(x))))
    # TOTALORDER: NaN, inf and signed zeros, every float type with them.
    for t in h.FLOATS:
        cand = [1.0, -u.INF, -0.0, u.NAN, 0.0, -1.5, u.INF, 0.5]
        x = [v for v in cand if h.representable(t, v)]
        if t == "f8e8m0fnu":
            x = [v for v in x if v > 0] + [u.NAN]
        exp = sorted(x, key=lambda v: u.total_key(t, v))
        cases.append(case(
            "sort.%s.totalorder_special" % t, SO_1D, "hand",
            u.module([lt_comp("cmp", t, cmp_type="TOTALORDER")],
                     [u.shp(t, [len(x)])], u.shp(t, [len(x)]),
                     "sort(p0), dimensions={0}, to_apply=cmp"),
            [h.literal(t, x)], h.literal(t, exp),
            note="compare TOTALORDER orders by sign-magnitude bit pattern: "
            "-0 < +0, NaN after +inf (a fnuz NaN is the -0 pattern)"))
    # Descending, 2-D along each dimension, default last dimension.
    m = np.array([[3, 1, 2], [9, 7, 8], [-1, 5, 0]], dtype=object)
    for d, out in [(0, np.sort(m.astype(int), axis=0)),
                   (1, np.sort(m.astype(int), axis=1))]:
        cases.append(case(
            "sort.s32.2d_dim%d" % d, SO_ND, "hand",
            u.module([lt_comp("cmp", "s32")], ["s32[3,3]"], "s32[3,3]",
                     "sort(p0), dimensions={%d}, to_apply=cmp" % d),
            [u.lit("s32", m)], u.lit("s32", out.astype(object))))
    cases.append(case(
        "sort.f32.descending", SO_1D, "hand",
        u.module([lt_comp("cmp", "f32", direction="GT")], ["f32[5]"],
                 "f32[5]", "sort(p0), dimensions={0}, to_apply=cmp"),
        ["f32[5] {2, -1, 8, 0.5, 3}"], "f32[5] {8, 3, 2, 0.5, -1}"))
    # Stability: equal keys keep their order.
    keys = [2, 1, 2, 0, 1, 2, 0, 1]
    vals = list(range(8))
    order = sorted(range(8), key=lambda i: keys[i])  # Python sort: stable
    cases.append(case(
        "sort.s32_s32.stable", [SO_STABLE, SO_TUPLE], "hand",
        u.module([lt_comp("cmp", "s32", 2)], ["s32[8]", "s32[8]"],
                 "(s32[8], s32[8])",
                 "sort(p0, p1), dimensions={0}, is_stable=true, "
                 "to_apply=cmp"),
        [h.literal("s32", keys), h.literal("s32", vals)],
        u.tuple_lit([h.literal("s32", [keys[i] for i in order]),
                     h.literal("s32", [vals[i] for i in order])])))
    fkeys = [1.0, -0.0, 0.0, 1.0, -0.0, 0.5]
    order = sorted(range(6), key=lambda i: fkeys[i])
    cases.append(case(
        "sort.f32_s32.stable_signed_zeros", [SO_STABLE, SO_TUPLE], "hand",
        u.module([lt_comp("cmp", ["f32", "s32"], 2)], ["f32[6]", "s32[6]"],
                 "(f32[6], s32[6])",
                 "sort(p0, p1), dimensions={0}, is_stable=true, "
                 "to_apply=cmp"),
        [h.literal("f32", fkeys), h.literal("s32", list(range(6)))],
        u.tuple_lit([h.literal("f32", [fkeys[i] for i in order]),
                     h.literal("s32", order)]),
        note="-0 and +0 are equal under LT, so they keep their order"))
    tie = """cmp {
  a0 = s32[] parameter(0)
  a1 = s32[] parameter(1)
  b0 = f16[] parameter(2)
  b1 = f16[] parameter(3)
  lt = pred[] compare(a0, a1), direction=LT
  eq = pred[] compare(a0, a1), direction=EQ
  lt2 = pred[] compare(b0, b1), direction=GT
  tie = pred[] and(eq, lt2)
  ROOT c = pred[] or(lt, tie)
}"""
    k = [1, 0, 1, 0, 1]
    v = [0.5, 2.0, 3.0, -1.0, 1.0]
    order = sorted(range(5), key=lambda i: (k[i], -v[i]))
    cases.append(case(
        "sort.s32_f16.tie_breaker", [SO_TIE, SO_TUPLE], "hand",
        u.module([tie], ["s32[5]", "f16[5]"], "(s32[5], f16[5])",
                 "sort(p0, p1), dimensions={0}, to_apply=cmp"),
        [h.literal("s32", k), h.literal("f16", v)],
        u.tuple_lit([h.literal("s32", [k[i] for i in order]),
                     h.literal("f16", [v[i] for i in order])])))
    k = [2, 1, 2, 1]
    cases.append(case(
        "sort.s32_s32.unstable_ties", "Sort :: By default, `is_stable` is "
        "set to false.", "hand",
        u.module([lt_comp("cmp", "s32", 2)], ["s32[4]", "s32[4]"],
                 "(s32[4], s32[4])",
                 "sort(p0, p1), dimensions={0}, to_apply=cmp"),
        [h.literal("s32", k), h.literal("s32", [0, 1, 2, 3])], None,
        impl="without is_stable the order of equal keys (and so of their "
        "payload) is not fixed"))
    u.add_spec(cases, {
        "sort.f32.ascending": [
            "Sort :: If you want to sort the array into ascending order, the "
            "comparator should perform a less-than comparison.",
            "Sort :: Formally, after the array is sorted, it holds for all "
            "index positions `i, j` with"],
        "sort.s32.ascending": [
            "Sort :: If you want to sort the array into ascending order, the "
            "comparator should perform a less-than comparison."],
        "sort.s32.2d_dim0": [
            "Sort :: a dimension value of `0` will independently sort every "
            "column", "Sort :: For the dimension which is sorted, the same "
            "sorting order applies as in"],
        "sort.s32.2d_dim1": [
            "Sort :: a dimension value of `1` will independently sort each "
            "row."],
        "sort.s32_s32_f32.spec_example": [
            "Sort :: The element types of the tensors may be different.",
            "Sort :: Conceptually the operands are treated as a tuple.",
            "Sort :: The `i-th` operand of the tuple corresponds to the "
            "`i-th` operand of Sort.", "Sort :: The result is a tuple that "
            "consists of the operands in sorted order"],
        "sort.s32_s32.stable": [
            "Sort :: Two elements `e1` and `e2` are equal if and only if"],
        "sort.f32_s32.stable_signed_zeros": [
            "Sort :: Two elements `e1` and `e2` are equal if and only if"],
    })
    cases.append(reject(
        "sort.reject.dimension", SO_ND,
        u.module([lt_comp("cmp", "s32")], ["s32[3]"], "s32[3]",
                 "sort(p0), dimensions={1}, to_apply=cmp"),
        "operation_semantics.md, Sort"))
    cases.append(reject(
        "sort.reject.operand_dims",
        "Sort :: All `n` operands must be tensors with the same dimensions.",
        u.module([lt_comp("cmp", "s32", 2)], ["s32[3]", "s32[4]"],
                 "(s32[3], s32[4])",
                 "sort(p0, p1), dimensions={0}, to_apply=cmp"),
        "operation_semantics.md, Sort"))
    cases.append(reject(
        "sort.reject.comparator_arity",
        "Sort :: the comparator is called with `2 * n` scalar parameters",
        u.module([lt_comp("cmp", "s32")], ["s32[3]", "s32[3]"],
                 "(s32[3], s32[3])",
                 "sort(p0, p1), dimensions={0}, to_apply=cmp"),
        "operation_semantics.md, Sort"))
    return cases


# --- topk --------------------------------------------------------------------

T_DEF = ("TopK :: `TopK` finds the values and indices of the `k` largest or "
         "smallest elements for")
T_TIE = ("TopK :: If two elements within a row are equal, the lower-index "
         "element appears first.")
T_ND = ("TopK :: computes the top `k` entries along the last dimension, "
        "preserving all other dimensions")


def topk_expect(t, rows, k, largest):
    vs, ix = [], []
    for row in rows:
        order = sorted(range(len(row)),
                       key=lambda i: ((-row[i] if largest else row[i]), i))
        vs.append([row[i] for i in order[:k]])
        ix.append(order[:k])
    return vs, ix


def topk_cases():
    cases = []
    for t in h.INTS + h.FLOATS:
        if t == "pred":
            continue
        p = u.distinct(t, 5)
        rows = [[p[i % len(p)] for i in [1, 3, 0, 4, 2]],
                [p[i % len(p)] for i in [2, 2, 4, 0, 4]]]
        for largest in (True, False):
            vs, ix = topk_expect(t, rows, 2, largest)
            cases.append(case(
                "topk.%s.%s" % (t, "largest" if largest else "smallest"),
                [T_DEF, T_ND, T_TIE], "hand",
                u.module([], [u.shp(t, [2, 5])],
                         "(%s, s32[2,2])" % u.shp(t, [2, 2]),
                         "topk(p0), k=2, largest=%s"
                         % ("true" if largest else "false")),
                [u.lit(t, rows)],
                u.tuple_lit([u.lit(t, vs), u.lit("s32", ix)])))
    for t in h.FLOATS:
        fi = h.finfo(t)
        row = [1.0, float(fi.max), -float(fi.max), 0.5]
        if h.has_inf(t):
            row = [1.0, u.INF, -u.INF, float(fi.max)]
        if t == "f8e8m0fnu":
            row = [1.0, float(fi.max), float(fi.min), 0.5]
        vs, ix = topk_expect(t, [row], 2, True)
        cases.append(case(
            "topk.%s.extremes" % t, [T_DEF, T_TIE], "hand",
            u.module([], [u.shp(t, [4])],
                     "(%s, s32[2])" % u.shp(t, [2]),
                     "topk(p0), k=2, largest=true"),
            [h.literal(t, row)],
            u.tuple_lit([h.literal(t, vs[0]), h.literal("s32", ix[0])])))
    cases.append(case(
        "topk.f32.1d_ties", [T_DEF, T_TIE], "hand",
        u.module([], ["f32[6]"], "(f32[4], s32[4])",
                 "topk(p0), k=4, largest=true"),
        ["f32[6] {3, 7, 3, 7, -1, 3}"],
        "(f32[4] {7, 7, 3, 3}, s32[4] {1, 3, 0, 2})"))
    cases.append(case(
        "topk.s32.k_equals_size", T_DEF, "hand",
        u.module([], ["s32[2,1,3]"], "(s32[2,1,3], s32[2,1,3])",
                 "topk(p0), k=3, largest=true"),
        ["s32[2,1,3] { { {5, -2, 9} }, { {0, 0, 1} } }"],
        "(s32[2,1,3] { { {9, 5, -2} }, { {1, 0, 0} } }, "
        "s32[2,1,3] { { {2, 0, 1} }, { {2, 0, 1} } })"))
    u.add_spec(cases, {
        "topk.f32.1d_ties": [
            "TopK :: For a 1-dimensional input tensor (an array), finds the "
            "`k` largest or smallest"],
        "topk.f32.largest": [
            "TopK :: Thus `values[j]` is the `j`-th largest/smallest entry "
            "in `operand`, and its index is"],
        "topk.s32.smallest": [
            "TopK :: Thus `values[j]` is the `j`-th largest/smallest entry "
            "in `operand`, and its index is"],
        "topk.s32.k_equals_size": [
            "TopK :: Thus, for an operand of shape `[A, B, ..., P, Q]` "
            "where `Q >= k` the output is"],
    })
    cases.append(reject(
        "topk.reject.k_too_large",
        "TopK :: The size of the last dimension of the",
        u.module([], ["f32[3]"], "(f32[4], s32[4])",
                 "topk(p0), k=4, largest=true"),
        "operation_semantics.md, TopK"))
    return cases


# --- scan --------------------------------------------------------------------

SC_EX = ("Scan :: The output of `Scan` is `([y0, y1, y2], c2)`.")
SC_REV = ("Scan :: If `is_reverse` is true, elements are processed from "
          "`N-1` down to `0`.")
SC_DEF = ("Scan :: The function `to_apply` is applied sequentially to "
          "elements in `inputs` along")


def cumsum_body(t):
    return """body {
  x = %s[] parameter(0)
  c = %s[] parameter(1)
  s = %s[] add(x, c)
  ROOT t = (%s[], %s[]) tuple(s, s)
}""" % ((t,) * 5)


def scan_cases():
    cases = []
    for t in ("f32", "s32", "s8", "f16", "bf16", "f64", "u16", "c64"):
        x = u.take(t, 3)
        fn = u.binop("add", t)
        ys, c = [], u.rnd(t, 0)
        for v in x:
            c = fn(v, c)
            ys.append(c)
        cases.append(case(
            "scan.%s.spec_example_cumsum" % t, [SC_EX, SC_DEF],
            "hand",
            u.module([cumsum_body(t)], [u.shp(t, [3]), u.shp(t, [])],
                     "(%s, %s[])" % (u.shp(t, [3]), t),
                     "scan(p0, p1), dimensions={0}, num_carries=1, "
                     "is_reverse=false, to_apply=body"),
            [h.literal(t, x), h.literal(t, 0)],
            u.tuple_lit([h.literal(t, ys), h.literal(t, c)]),
            note="the spec's f(x, c) -> (y, c') with f = running sum"))
    # Every element type: the carry is the running maximum (sum for
    # complex), each step's output is the new carry.
    for t in h.ALL:
        op = "add" if h.is_complex(t) else "maximum"
        fn = u.binop(op, t)
        x = u.take(t, 4, 1)
        init = 0j if h.is_complex(t) else u.lowest(t)
        ys, c = [], init
        for v in x:
            c = fn(v, c)
            ys.append(c)
        body = """body {
  x = %s[] parameter(0)
  c = %s[] parameter(1)
  s = %s[] %s(x, c)
  ROOT t = (%s[], %s[]) tuple(s, s)
}""" % (t, t, t, op, t, t)
        cases.append(case(
            "scan.%s.running_%s" % (t, op), SC_DEF, "hand",
            u.module([body], [u.shp(t, [4]), u.shp(t, [])],
                     "(%s, %s[])" % (u.shp(t, [4]), t),
                     "scan(p0, p1), dimensions={0}, num_carries=1, "
                     "is_reverse=false, to_apply=body"),
            [h.literal(t, x), h.literal(t, init)],
            u.tuple_lit([h.literal(t, ys), h.literal(t, c)])))
    cases.append(case(
        "scan.s32.reverse", SC_REV, "hand",
        u.module([cumsum_body("s32")], ["s32[4]", "s32[]"],
                 "(s32[4], s32[])",
                 "scan(p0, p1), dimensions={0}, num_carries=1, "
                 "is_reverse=true, to_apply=body"),
        ["s32[4] {1, 2, 3, 4}", "s32[] 100"],
        "(s32[4] {110, 109, 107, 104}, s32[] 110)"))
    body2 = """body {
  x = s32[2] parameter(0)
  c = s32[2] parameter(1)
  s = s32[2] add(x, c)
  ROOT t = (s32[2], s32[2]) tuple(s, s)
}"""
    cases.append(case(
        "scan.s32.dim1_vector_carry", SC_DEF, "hand",
        u.module([body2], ["s32[2,3]", "s32[2]"], "(s32[2,3], s32[2])",
                 "scan(p0, p1), dimensions={1}, num_carries=1, "
                 "is_reverse=false, to_apply=body"),
        ["s32[2,3] { {1, 2, 3}, {4, 5, 6} }", "s32[2] {0, 10}"],
        "(s32[2,3] { {1, 3, 6}, {14, 19, 25} }, s32[2] {6, 25})"))
    two = """body {
  x = f32[] parameter(0)
  y = s32[] parameter(1)
  c = f32[] parameter(2)
  n = s32[] parameter(3)
  s = f32[] add(x, c)
  m = f32[] multiply(s, x)
  n1 = s32[] add(n, y)
  ROOT t = (f32[], f32[], s32[]) tuple(m, s, n1)
}"""
    cases.append(case(
        "scan.f32_s32.two_inputs_two_carries",
        ["Scan :: The `to_apply` function takes `m + k` operands:", SC_DEF],
        "hand",
        u.module([two], ["f32[3]", "s32[3]", "f32[]", "s32[]"],
                 "(f32[3], f32[], s32[])",
                 "scan(p0, p1, p2, p3), dimensions={0}, num_carries=2, "
                 "is_reverse=false, to_apply=body"),
        ["f32[3] {1, 2, -0.5}", "s32[3] {5, 6, 7}", "f32[] 0.5",
         "s32[] 0"],
        "(f32[3] {1.5, 7, -1.5}, f32[] 3, s32[] 18)",
        note="running sums 1.5, 3.5, 3; outputs sum * x"))
    u.add_spec(cases, {
        "scan.f32.spec_example_cumsum": [
            "Scan :: - Step 0: `f(a, i) -> (y0, c0)`",
            "Scan :: - Step 1: `f(b, c0) -> (y1, c1)`",
            "Scan :: - Step 2: `f(c, c1) -> (y2, c2)`",
            "Scan :: If `is_reverse` is false, elements are processed in "
            "order `0` to `N-1`", "Scan :: Applies a reduction function to "
            "an array across a given dimension, producing"],
        "scan.f32_s32.two_inputs_two_carries": [
            "Scan :: The `to_apply` function returns a tuple of `n + k` "
            "values:", "Scan :: The Scan operation produces a tuple of "
            "`n + k` values:", "Scan :: The `n` output arrays, containing "
            "the output values for each step.", "Scan :: The final `k` "
            "carry values after processing all elements."],
    })
    cases.append(reject(
        "scan.reject.input_type",
        "Scan :: The types of the `m` inputs must match the types of the "
        "first `m` parameters",
        u.module([cumsum_body("s32")], ["f32[3]", "s32[]"],
                 "(s32[3], s32[])",
                 "scan(p0, p1), dimensions={0}, num_carries=1, "
                 "is_reverse=false, to_apply=body"),
        "operation_semantics.md, Scan"))
    cases.append(reject(
        "scan.reject.scan_sizes_differ",
        "Scan :: The extra scan dimension among all inputs and outputs must "
        "have the same size `N`.",
        u.module([two], ["f32[3]", "s32[4]", "f32[]", "s32[]"],
                 "(f32[3], f32[], s32[])",
                 "scan(p0, p1, p2, p3), dimensions={0}, num_carries=2, "
                 "is_reverse=false, to_apply=body"),
        "operation_semantics.md, Scan"))
    cases.append(reject(
        "scan.reject.carry_type",
        "Scan :: The types of the last `k` parameters and return values of",
        u.module([cumsum_body("s32")], ["s32[3]", "f32[]"],
                 "(s32[3], f32[])",
                 "scan(p0, p1), dimensions={0}, num_carries=1, "
                 "is_reverse=false, to_apply=body"),
        "operation_semantics.md, Scan"))
    return cases


FILES = [
    ("map", "map", map_cases),
    ("sort", "sort", sort_cases),
    ("topk", "topk", topk_cases),
    ("scan", "scan", scan_cases),
]


def main():
    for stem, op, fn in FILES:
        cases = fn()
        path = h.write_file(FAMILY, stem, op, cases,
                            "%s (operation_semantics.md)." % op, GEN)
        print("%s: %d cases" % (path, len(cases)))


if __name__ == "__main__":
    main()
