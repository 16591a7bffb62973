"""Generates spec_tests/control_flow/<op>.hlotest for get-dimension-size,
set-dimension-size, dynamic-reshape, fusion, async-start/async-update/
async-done and copy-start/copy-done (operation_semantics.md).

Expected values by hand: the spec's set-dimension-size example, sizes,
and values moved bit for bit.
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_control_flow_hlo.py
"""
import numpy as np

import hlotest as h
import structured_util as u
from gen_control_flow import case, reject, special

FAMILY = "control_flow"
GEN = "gen_control_flow_hlo.py"


# --- dynamic dimensions ------------------------------------------------------

GDS = ("GetDimensionSize :: Returns the size of the given dimension of the "
       "operand.")
SDS = ("SetDimensionSize :: Pass through the operand as result, with dynamic "
       "dimension tracked by the")
SDS_RED = ("SetDimensionSize :: Padded values will be ignored by "
           "downstream reduction ops.")
SDS_EX = "SetDimensionSize :: let sum:f32[] = reduce_sum(padded_v_five);"
DR = ("DynamicReshape :: This operation is functionally identical to "
      "[reshape](#reshape), but the result")


def red_comp(name, op):
    return u.scalar_comp(name, "f32", op)


def dynamic_cases():
    gds, sds, drs = [], [], []
    for t in h.ALL:
        gds.append(case(
            "get-dimension-size.%s.static" % t, GDS, "hand",
            u.module([], [u.shp(t, [2, 5, 3])], "s32[]",
                     "get-dimension-size(p0), dimensions={1}"),
            [u.lit(t, u.arr(t, [2, 5, 3]))], "s32[] 5"))
    gds.append(case(
        "get-dimension-size.f32.zero_size", GDS, "hand",
        u.module([], ["f32[3,0]"], "s32[]",
                 "get-dimension-size(p0), dimensions={1}"),
        ["f32[3,0] { {}, {}, {} }"], "s32[] 0"))
    for n in (0, 3, 7):
        gds.append(case(
            "get-dimension-size.f32.after_set_%d" % n, [GDS, SDS], "hand",
            u.module([], ["f32[7]", "s32[]"], "s32[]",
                     "get-dimension-size(d), dimensions={0}",
                     extra="d = f32[<=7] set-dimension-size(p0, p1), "
                     "dimensions={0}"),
            [h.literal("f32", list(range(7))), "s32[] %d" % n],
            "s32[] %d" % n))
    gds.append(reject(
        "get-dimension-size.reject.dimension_out_of_range",
        "GetDimensionSize :: A value in the interval `[0, n)` that "
        "specifies the",
        u.module([], ["f32[2,3]"], "s32[]",
                 "get-dimension-size(p0), dimensions={2}"),
        "operation_semantics.md, GetDimensionSize"))
    gds.append(reject(
        "get-dimension-size.reject.tuple_operand",
        "GetDimensionSize :: The operand must be array shaped.",
        u.module([], ["(f32[2], f32[3])"], "s32[]",
                 "get-dimension-size(p0), dimensions={0}"),
        "operation_semantics.md, GetDimensionSize"))
    sds.append(reject(
        "set-dimension-size.reject.tuple_operand",
        "SetDimensionSize :: The operand must be array shaped.",
        u.module([], ["(f32[2], f32[3])", "s32[]"], "(f32[2], f32[3])",
                 "set-dimension-size(p0, p1), dimensions={0}"),
        "operation_semantics.md, SetDimensionSize"))
    sds.append(reject(
        "set-dimension-size.reject.dimension_out_of_range",
        "SetDimensionSize :: A value in the interval `[0, n)` that specifies "
        "the", u.module([], ["f32[2,3]", "s32[]"], "f32[2,<=3]",
                        "set-dimension-size(p0, p1), dimensions={2}"),
        "operation_semantics.md, SetDimensionSize"))
    v = h.literal("f32", list(range(1, 11)))
    for n, op, init, out, frag in [
            (5, "add", 0, 15, SDS_EX),
            (5, "multiply", 1, 120,
             "SetDimensionSize :: let product:f32[] = "
             "reduce_product(padded_v_five);"),
            (6, "add", 0, 21,
             "SetDimensionSize :: Changing padding size will yield "
             "different result.")]:
        sds.append(case(
            "set-dimension-size.f32.spec_example_%s_%d" % (op, n),
            [frag, SDS_RED], "spec-example",
            u.module([red_comp("f", op)], ["f32[10]", "s32[]"], "f32[]",
                     "reduce(d, z), dimensions={0}, to_apply=f",
                     extra="d = f32[<=10] set-dimension-size(p0, p1), "
                     "dimensions={0}\nz = f32[] constant(%d)" % init),
            [v, "s32[] %d" % n], "f32[] %d" % out))
    for t in ["pred"] + h.INTS + h.FLOATS:
        x = u.arr(t, [2, 4])
        mx = u.binop("maximum", t)
        exp = [mx(mx(x[i, 0], x[i, 1]), x[i, 2]) for i in range(2)]
        sds.append(case(
            "set-dimension-size.%s.reduce_max_prefix" % t,
            [SDS, SDS_RED, "SetDimensionSize :: Sets the dynamic size of "
             "XlaOp's given dimension."],
            "hand",
            u.module([u.scalar_comp("f", t, "maximum")],
                     [u.shp(t, [2, 4]), "s32[]"], u.shp(t, [2]),
                     "reduce(d, lo), dimensions={1}, to_apply=f",
                     extra="d = %s[2,<=4] set-dimension-size(p0, p1), "
                     "dimensions={1}\nlo = %s constant(%s)"
                     % (t, u.shp(t, []), h.fmt_value(t, u.lowest(t)))),
            [u.lit(t, x), "s32[] 3"], h.literal(t, exp),
            note="only the first 3 elements of each row count"))
    sds.append(reject(
        "set-dimension-size.reject.size_not_s32",
        "SetDimensionSize :: int32 representing the runtime dynamic size.",
        u.module([], ["f32[4]", "f32[]"], "f32[<=4]",
                 "set-dimension-size(p0, p1), dimensions={0}"),
        "operation_semantics.md, SetDimensionSize"))
    a = np.arange(1, 13, dtype=object).reshape(2, 6)
    for r, c in [(3, 4), (4, 3), (2, 6), (1, 12)]:
        drs.append(case(
            "dynamic-reshape.f32.to_%dx%d_sizes" % (r, c), [DR, GDS], "hand",
            u.module([], ["f32[2,6]", "s32[]", "s32[]"], "(s32[], s32[])",
                     "tuple(g0, g1)",
                     extra="d = f32[<=12,<=12] dynamic-reshape(p0, p1, p2)\n"
                     "g0 = s32[] get-dimension-size(d), dimensions={0}\n"
                     "g1 = s32[] get-dimension-size(d), dimensions={1}"),
            [u.lit("f32", a), "s32[] %d" % r, "s32[] %d" % c],
            "(s32[] %d, s32[] %d)" % (r, c)))
    add = red_comp("f", "add")
    s = a.reshape(4, 3).sum(axis=1)
    drs.append(case(
        "dynamic-reshape.f32.row_sums_4x3", DR, "hand",
        u.module([add], ["f32[2,6]", "s32[]", "s32[]"], "f32[4]",
                 "reduce(d, z), dimensions={1}, to_apply=f",
                 extra="d = f32[4,<=6] dynamic-reshape(p0, p1, p2)\n"
                 "z = f32[] constant(0)"),
        [u.lit("f32", a), "s32[] 4", "s32[] 3"], u.lit("f32", s),
        note="reshape to [4,3] in row-major order, then only the 3 valid "
        "columns are summed"))
    # Every element type: the bounded-dynamic result itself, compared with
    # its dynamic sizes (`t[<=4,<=6](4,3)`).
    for t in h.ALL:
        x = u.arr(t, [2, 6])
        flat = list(x.reshape(-1))
        drs.append(case(
            "dynamic-reshape.%s.to_4x3" % t, DR, "hand",
            u.module([], [u.shp(t, [2, 6]), "s32[]", "s32[]"],
                     "%s[<=4,<=6]" % t, "dynamic-reshape(p0, p1, p2)"),
            [u.lit(t, x), "s32[] 4", "s32[] 3"],
            "%s[<=4,<=6](4,3) %s" % (t, h.nest(t, [4, 3], flat)),
            note="row-major order as in Reshape; the result has dynamic "
            "sizes (4, 3) within bounds (4, 6)"))
        sds.append(case(
            "set-dimension-size.%s.result_sizes" % t, SDS, "hand",
            u.module([], [u.shp(t, [2, 6]), "s32[]"], "%s[2,<=6]" % t,
                     "set-dimension-size(p0, p1), dimensions={1}"),
            [u.lit(t, x), "s32[] 2"],
            "%s[2,<=6](2,2) %s" % (t, h.nest(t, [2, 2], flat[0:2] +
                                              flat[6:8])),
            note="the operand passes through; only the first 2 columns are "
            "valid"))
    drs.append(reject(
        "dynamic-reshape.reject.size_count", DR,
        u.module([], ["f32[2,6]", "s32[]"], "f32[<=12,<=12]",
                 "dynamic-reshape(p0, p1)"),
        "operation_semantics.md, DynamicReshape"))
    return gds, sds, drs


# --- fusion, async -----------------------------------------------------------

FUS = ["Fusion :: `Fusion` operation represents HLO instructions and serves "
       "as a primitive in HLO.", "Fusion :: This op may appear in HLO dumps "
       "but is not intended to be constructed"]
ASY = ["Async :: `AsyncDone`, `AsyncStart`, and `AsyncUpdate` are internal "
       "HLO instructions used", "Async :: These ops may appear in HLO dumps "
       "but they are not intended to be"]


def fusion_cases():
    cases = []
    for t in h.ALL:
        x, y = u.arr(t, [3]), u.arr(t, [3], 1)
        s = u.shp(t, [3])
        fused = """fused {
  a = %s parameter(0)
  b = %s parameter(1)
  r = %s reverse(a), dimensions={0}
  ROOT c = %s concatenate(r, b), dimensions={0}
}""" % (s, s, s, u.shp(t, [6]))
        cases.append(case(
            "fusion.%s.loop" % t, FUS, "hand",
            u.module([fused], [s, s], u.shp(t, [6]),
                     "fusion(p0, p1), kind=kLoop, calls=fused"),
            [u.lit(t, x), u.lit(t, y)],
            u.lit(t, np.concatenate([x[::-1], y]))))
    fma = """fused {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  m = f32[4] multiply(a, b)
  ROOT s = f32[4] add(m, a)
}"""
    for kind in ("kLoop", "kInput", "kOutput", "kCustom"):
        cases.append(case(
            "fusion.f32.kind_%s" % kind[1:].lower(), FUS, "hand",
            u.module([fma], ["f32[4]", "f32[4]"], "f32[4]",
                     "fusion(p0, p1), kind=%s, calls=fused" % kind),
            ["f32[4] {1, 2, -3, 0.5}", "f32[4] {2, 0.25, 1, 4}"],
            "f32[4] {3, 2.5, -6, 2.5}",
            note="the kind is a scheduling hint: the value is the fused "
            "computation's"))
    cases.append(reject(
        "fusion.reject.operand_types", FUS[0],
        u.module([fma], ["f32[4]", "s32[4]"], "f32[4]",
                 "fusion(p0, p1), kind=kLoop, calls=fused"),
        "operation_semantics.md, Fusion"))
    return cases


def async_cases():
    cases = []
    for t in h.ALL:
        x = u.arr(t, [3])
        s = u.shp(t, [3])
        comp = """wrapped {
  x = %s parameter(0)
  ROOT y = %s reverse(x), dimensions={0}
}""" % (s, s)
        ctx = "((%s), %s, s32[])" % (s, s)
        cases.append(case(
            "async-start.%s.start_done" % t, ASY, "hand",
            u.module([comp], [s], s, "async-done(st), calls=wrapped",
                     extra="st = %s async-start(p0), calls=wrapped" % ctx),
            [u.lit(t, x)], u.lit(t, x[::-1])))
    comp = """wrapped {
  x = f32[2] parameter(0)
  y = s32[] parameter(1)
  c = f32[] convert(y)
  b = f32[2] broadcast(c), dimensions={}
  ROOT z = f32[2] multiply(x, b)
}"""
    ctx = "((f32[2], s32[]), f32[2], s32[])"
    cases.append(u.OpCase(
        "async-start, async-update, async-done",
        "async-update.f32.start_update_done", ASY, "hand",
        u.module([comp], ["f32[2]", "s32[]"], "f32[2]",
                 "async-done(up), calls=wrapped",
                 extra="st = %s async-start(p0, p1), calls=wrapped\n"
                 "up = %s async-update(st), calls=wrapped" % (ctx, ctx)),
        args=["f32[2] {1.5, -2}", "s32[] 3"], expect="f32[2] {4.5, -6}"))
    cases.append(case(
        "async-done.s32.two_in_flight", ASY, "hand",
        u.module(["""neg {
  x = s32[] parameter(0)
  ROOT y = s32[] negate(x)
}"""], ["s32[]", "s32[]"], "(s32[], s32[])", "tuple(d1, d0)",
                 extra="a = ((s32[]), s32[], s32[]) async-start(p0), "
                 "calls=neg\nb = ((s32[]), s32[], s32[]) async-start(p1), "
                 "calls=neg\nd0 = s32[] async-done(a), calls=neg\n"
                 "d1 = s32[] async-done(b), calls=neg"),
        ["s32[] 5", "s32[] -7"], "(s32[] 7, s32[] -5)"))
    return cases


CPY = ["Copy :: `Copy` is internally decomposed into 2 HLO instructions "
       "`CopyStart` and", "Copy :: `Copy` along with `CopyStart` and "
       "`CopyDone` serve as primitives in"]


def copy_start_cases():
    cases = []
    for t in h.ALL:
        vals = special(t)
        text = h.literal(t, vals)
        sh = u.shp(t, [len(vals)])
        cases.append(case(
            "copy-start.%s.start_done" % t, CPY, "hand",
            u.module([], [sh], sh, "copy-done(cs)",
                     extra="cs = (%s, %s, u32[]) copy-start(p0)" % (sh, sh)),
            [text], text, note="the copy is bit for bit, NaN and -0 "
            "included"))
    cases.append(case(
        "copy-start.f32.two_in_flight", CPY, "hand",
        u.module([], ["f32[2]", "f32[2]"], "(f32[2], f32[2])",
                 "tuple(d1, d0)",
                 extra="a = (f32[2], f32[2], u32[]) copy-start(p0)\n"
                 "b = (f32[2], f32[2], u32[]) copy-start(p1)\n"
                 "d0 = f32[2] copy-done(a)\nd1 = f32[2] copy-done(b)"),
        ["f32[2] {1, 2}", "f32[2] {3, 4}"],
        "(f32[2] {3, 4}, f32[2] {1, 2})"))
    cases.append(reject(
        "copy-start.reject.done_of_array", CPY[0],
        u.module([], ["f32[2]"], "f32[2]", "copy-done(p0)"),
        "operation_semantics.md, Copy"))
    return cases


def main():
    gds, sds, drs = dynamic_cases()
    files = [
        ("get-dimension-size", "get-dimension-size", gds),
        ("set-dimension-size", "set-dimension-size", sds),
        ("dynamic-reshape", "dynamic-reshape", drs),
        ("fusion", "fusion", fusion_cases()),
        ("async", "async-start, async-done", async_cases()),
        ("copy-start", "copy-start, copy-done", copy_start_cases()),
    ]
    for stem, op, cases in files:
        path = h.write_file(FAMILY, stem, op, cases,
                            "%s (operation_semantics.md)." % op, GEN)
        print("%s: %d cases" % (path, len(cases)))


if __name__ == "__main__":
    main()
