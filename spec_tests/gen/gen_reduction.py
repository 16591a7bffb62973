"""Generates spec_tests/reduction/<op>.hlotest for reduce (incl.
variadic), reduce-window (padding, base and window dilation, variadic) and
select-and-scatter (operation_semantics.md); gen_reduction_sort.py writes
map, sort, topk and scan.

Expected values: the spec's worked examples, else computed here in plain
Python (structured_util's reference implementations of the spec's
definitions), with exact arithmetic rounded once to the element type.
Inputs are small integers and short binary fractions, so every partial sum
is exact and any reassociation gives the same value.
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_reduction.py
"""
import functools

import numpy as np

import hlotest as h
import structured_util as u

FAMILY = "reduction"
GEN = "gen_reduction.py"


def case(name, spec, source, mod, args=(), expect=None, note=None, **kw):
    return h.Case(name, spec, source, mod, args=list(args), expect=expect,
                  note=note, **kw)


def reject(name, spec, mod, rule, note=None):
    return h.Case(name, spec, "hand", mod, reject="verify " + rule,
                  note=note)


def fold(fn, init, xs):
    return functools.reduce(fn, xs, init)


# --- reduce -----------------------------------------------------------------

R_APPLY = ("Reduce :: Applies a reduction function to one or more arrays in "
           "parallel.")
R_DIMS = ("Reduce :: This operation reduces one or more dimensions of each "
          "input array into scalars.")
R_ORDER = ("Reduce :: Note that the relative order between the remaining "
           "dimensions in the input is")
R_VAR = ("Variadic Reduce :: When `N > 1`, reduce function application is "
         "slightly more complex, as it is")
R_ARGMAX = ("Variadic Reduce :: compute the max and the argmax of a 1-D "
            "array in parallel")


def reduce_op_for(t):
    """The reduction used for type t's coverage case, and its identity."""
    if h.is_complex(t):
        return "add", 0j
    return "maximum", u.lowest(t)


def reduce_cases():
    cases = []
    # The spec's 3-D example: values 1..6 replicated across dimension 0.
    a3 = np.array([[[1, 2, 3], [4, 5, 6]]] * 4, dtype=object)
    for t in ["f32", "s32"]:
        add = u.scalar_comp("add", t, "add")
        for dims, out, frag in [
                ([0], a3.sum(axis=0),
                 "Reduce :: If we reduce dimension 0, for example, we get a "
                 "2-dimensional array"),
                ([2], a3.sum(axis=2),
                 "Reduce :: If we reduce dimension 2, we also get a "
                 "2-dimensional array"),
                ([0, 1], a3.sum(axis=(0, 1)),
                 "Reduce :: Add-reducing dimensions 0 and 1 produces the 1D "
                 "array `[20, 28, 36]`."),
                ([0, 1, 2], a3.sum(),
                 "Reduce :: Reducing the 3D array over all its dimensions "
                 "produces the scalar `84`.")]:
            out = np.asarray(out, dtype=object)
            name = "reduce.%s.spec_example_3d_dims_%s" % (
                t, "".join(map(str, dims)))
            cases.append(case(
                name, frag, "spec-example",
                u.module([add], [u.shp(t, [4, 2, 3]), u.shp(t, [])],
                         u.shp(t, list(out.shape)),
                         "reduce(p0, p1), dimensions={%s}, to_apply=add"
                         % ",".join(map(str, dims))),
                [u.lit(t, a3), h.literal(t, 0)], u.lit(t, out)))
        cases.append(case(
            "reduce.%s.spec_example_1d" % t,
            "Reduce :: When reducing across one dimension in a single 1D "
            "array with values `[10, 11, 12, 13]`", "spec-example",
            u.module([add], [u.shp(t, [4]), u.shp(t, [])], u.shp(t, []),
                     "reduce(p0, p1), dimensions={0}, to_apply=add"),
            [h.literal(t, [10, 11, 12, 13]), h.literal(t, 0)],
            h.literal(t, 46)))
    # Every element type: reduce [2,3] along dimension 1 (and 0).
    for t in h.ALL:
        op, init = reduce_op_for(t)
        fn = u.binop(op, t)
        a = u.arr(t, [2, 3])
        comp = u.scalar_comp("f", t, op)
        for d in (1, 0):
            out = [fold(fn, init, (a[i, :] if d == 1 else a[:, i]))
                   for i in range(a.shape[1 - d])]
            cases.append(case(
                "reduce.%s.%s_dim%d" % (t, op, d), [R_APPLY, R_DIMS], "hand",
                u.module([comp], [u.shp(t, [2, 3]), u.shp(t, [])],
                         u.shp(t, [len(out)]),
                         "reduce(p0, p1), dimensions={%d}, to_apply=f" % d),
                [u.lit(t, a), h.literal(t, init)], h.literal(t, out)))
    # Integer add wraps around (two's complement), every integer type.
    for t in h.INTS:
        lo, hi = h.int_range(t)
        vals = [hi, hi, hi, lo]
        add = u.scalar_comp("add", t, "add")
        exp = fold(u.binop("add", t), 0, vals)
        cases.append(case(
            "reduce.%s.add_wraps" % t, R_APPLY, "hand",
            u.module([add], [u.shp(t, [4]), u.shp(t, [])], u.shp(t, []),
                     "reduce(p0, p1), dimensions={0}, to_apply=add"),
            [h.literal(t, vals), h.literal(t, 0)], h.literal(t, exp),
            note="integer addition wraps, so every order gives this sum"))
    # Float add of exactly representable partial sums.
    for t in h.WIDE_FLOATS + ["c64", "c128"]:
        vals = [1.5, -0.25, 8, 2, 0.75, -4] if not h.is_complex(t) else \
            [1 + 2j, -0.5 + 0.25j, 3 - 1j, 2j, -1, 0.5]
        add = u.scalar_comp("add", t, "add")
        a = np.array(vals, dtype=object).reshape(2, 3)
        cases.append(case(
            "reduce.%s.add_all" % t,
            "Reduce :: Reducing the 3D array over all its dimensions "
            "produces the scalar `84`.", "hand",
            u.module([add], [u.shp(t, [2, 3]), u.shp(t, [])], u.shp(t, []),
                     "reduce(p0, p1), dimensions={0,1}, to_apply=add"),
            [u.lit(t, a), h.literal(t, 0)], h.literal(t, sum(vals)),
            note="every partial sum is exact, so any association agrees"))
    # Edge values: NaN propagates through maximum; an empty reduced
    # dimension gives the init value; multiply; a rank-3 middle dimension.
    # Every float type: NaN propagates through a maximum reduction, +inf
    # wins it, and the largest finite value survives against -inf/lowest.
    for t in h.FLOATS:
        fi = h.finfo(t)
        mxt = u.scalar_comp("f", t, "maximum")
        groups = [("max_largest", [1.0, float(fi.max), -float(fi.max),
                                   2.0], float(fi.max))]
        if t == "f8e8m0fnu":
            groups = [("max_largest", [1.0, float(fi.max), float(fi.min)],
                       float(fi.max))]
        if h.has_nan(t):
            groups.append(("max_nan", [1.0, u.NAN, 2.0], u.NAN))
        if h.has_inf(t):
            groups.append(("max_inf", [1.0, u.INF, -u.INF], u.INF))
        for label, vals, out in groups:
            if label == "max_nan" and t == "f8e8m0fnu":
                vals = [1.0, u.NAN, 2.0]
            cases.append(case(
                "reduce.%s.%s" % (t, label), R_APPLY, "hand",
                u.module([mxt], [u.shp(t, [len(vals)]), u.shp(t, [])],
                         u.shp(t, []),
                         "reduce(p0, p1), dimensions={0}, to_apply=f"),
                [h.literal(t, vals), h.literal(t, u.lowest(t))],
                h.literal(t, out),
                note="maximum propagates NaN (elementwise Max)"
                if label == "max_nan" else None))
    add = u.scalar_comp("add", "f32", "add")
    cases.append(case(
        "reduce.f32.add_inf_minus_inf", R_APPLY, "hand",
        u.module([add], ["f32[3]", "f32[]"], "f32[]",
                 "reduce(p0, p1), dimensions={0}, to_apply=add"),
        ["f32[3] {inf, 1, -inf}", "f32[] 0"], "f32[] nan",
        note="every association meets inf + -inf"))
    cases.append(case(
        "reduce.f32.empty_dim_gives_init", R_DIMS, "hand",
        u.module([add], ["f32[0,3]", "f32[]"], "f32[3]",
                 "reduce(p0, p1), dimensions={0}, to_apply=add"),
        ["f32[0,3] {  }", "f32[] 0"], "f32[3] {0, 0, 0}"))
    cases.append(case(
        "reduce.f32.empty_result", R_DIMS, "hand",
        u.module([add], ["f32[3,0]", "f32[]"], "f32[0]",
                 "reduce(p0, p1), dimensions={0}, to_apply=add"),
        ["f32[3,0] { {}, {}, {} }", "f32[] 0"], "f32[0] {}"))
    cases.append(case(
        "reduce.f32.no_dims_is_identity_map", R_DIMS, "hand",
        u.module([add], ["f32[3]", "f32[]"], "f32[3]",
                 "reduce(p0, p1), dimensions={}, to_apply=add"),
        ["f32[3] {1, -2, 3}", "f32[] 0"], "f32[3] {1, -2, 3}"))
    mul = u.scalar_comp("mul", "s32", "multiply")
    a = np.arange(1, 25, dtype=object).reshape(2, 3, 4) % 5
    out = np.array([[int(np.prod(a[i, :, k])) for k in range(4)]
                    for i in range(2)], dtype=object)
    cases.append(case(
        "reduce.s32.multiply_middle_dim", [R_APPLY, R_ORDER], "hand",
        u.module([mul], ["s32[2,3,4]", "s32[]"], "s32[2,4]",
                 "reduce(p0, p1), dimensions={1}, to_apply=mul"),
        [u.lit("s32", a), "s32[] 1"], u.lit("s32", out)))
    a = np.arange(24, dtype=object).reshape(2, 3, 4)
    cases.append(case(
        "reduce.f32.unordered_dimensions",
        "Reduce :: unordered array of", "hand",
        u.module([add], ["f32[2,3,4]", "f32[]"], "f32[3]",
                 "reduce(p0, p1), dimensions={2,0}, to_apply=add"),
        [u.lit("f32", a), "f32[] 0"],
        u.lit("f32", a.sum(axis=(0, 2)))))
    sub = u.scalar_comp("sub", "f32", "subtract")
    cases.append(case(
        "reduce.f32.single_element_init_on_left", R_APPLY, "hand",
        u.module([sub], ["f32[3,1]", "f32[]"], "f32[3]",
                 "reduce(p0, p1), dimensions={1}, to_apply=sub"),
        ["f32[3,1] { {1}, {-2.5}, {4} }", "f32[] 10"], "f32[3] {9, 12.5, 6}",
        note="one element per result: the computation runs once as "
        "f(init, x) (the spec's f(init_value, 13)); subtract is not "
        "commutative, so the order is visible"))
    # Variadic: the spec's max/argmax.
    argmax = """argmax {
  max = f32[] parameter(0)
  argmax = s32[] parameter(1)
  value = f32[] parameter(2)
  index = s32[] parameter(3)
  ge = pred[] compare(value, max), direction=GE
  v = f32[] select(ge, value, max)
  i = s32[] select(ge, index, argmax)
  ROOT t = (f32[], s32[]) tuple(v, i)
}"""
    v = [3.0, 7.0, 1.0, 7.5, 2.0, 5.0]
    cases.append(case(
        "reduce.f32_s32.spec_example_argmax", [R_VAR, R_ARGMAX],
        "hand",
        u.module([argmax], ["f32[6]", "s32[6]", "f32[]", "s32[]"],
                 "(f32[], s32[])",
                 "reduce(p0, p1, p2, p3), dimensions={0}, to_apply=argmax"),
        [h.literal("f32", v), h.literal("s32", list(range(6))),
         "f32[] -inf", "s32[] -1"], "(f32[] 7.5, s32[] 3)"))
    m = np.array([[4, 9, 2], [8, 1, 6]], dtype=object)
    cases.append(case(
        "reduce.f32_s32.argmax_rows", [R_VAR, R_ARGMAX], "hand",
        u.module([argmax], ["f32[2,3]", "s32[2,3]", "f32[]", "s32[]"],
                 "(f32[2], s32[2])",
                 "reduce(p0, p1, p2, p3), dimensions={1}, to_apply=argmax"),
        [u.lit("f32", m), u.lit("s32", [[0, 1, 2], [0, 1, 2]]),
         "f32[] -inf", "s32[] -1"],
        "(f32[2] {9, 8}, s32[2] {1, 0})"))
    sum_min = """summin {
  a0 = s32[] parameter(0)
  b0 = f16[] parameter(1)
  a1 = s32[] parameter(2)
  b1 = f16[] parameter(3)
  s = s32[] add(a0, a1)
  m = f16[] minimum(b0, b1)
  ROOT t = (s32[], f16[]) tuple(s, m)
}"""
    cases.append(case(
        "reduce.s32_f16.variadic_sum_min", R_VAR, "hand",
        u.module([sum_min], ["s32[2,3]", "f16[2,3]", "s32[]", "f16[]"],
                 "(s32[3], f16[3])",
                 "reduce(p0, p1, p2, p3), dimensions={0}, to_apply=summin"),
        ["s32[2,3] { {1, 2, 3}, {10, 20, 30} }",
         "f16[2,3] { {0.5, -2, 7}, {1, 3, -inf} }", "s32[] 0", "f16[] inf"],
        "(s32[3] {11, 22, 33}, f16[3] {0.5, -2, -inf})"))
    u.add_spec(cases, {
        "reduce.f32.spec_example_3d": [
            "Examples :: Its number of dimensions is 3, dimension 0 of size "
            "4, dimension 1 of size 2 and", "Examples :: For simplicity, the "
            "values 1 to 6 are replicated across dimension 0."],
        "reduce.s32.spec_example_3d": [
            "Examples :: Its number of dimensions is 3, dimension 0 of size "
            "4, dimension 1 of size 2 and"],
        "reduce.f32.spec_example_1d": [
            "Examples :: `f(10, f(11, f(12, f(init_value, 13)))`"],
        "reduce.s32.spec_example_1d": [
            "Examples :: but there are also many other possibilities, e.g."],
        "reduce.f32.add_all": [
            "Reduce :: Different backends are allowed to reassociate the "
            "reduction computation.", "Reduce :: However, if the range of "
            "the data is limited, floating-point addition is close enough"],
        "reduce.f64.add_all": [
            "Reduce :: Different backends are allowed to reassociate the "
            "reduction computation."],
        "reduce.f32.maximum_dim": [
            "Reduce :: If `N = 1`, `Collate(T)` is `T`.",
            "Reduce :: All initial values have to form an identity under "
            "`computation`."],
        "reduce.s32.maximum_dim": [
            "Reduce :: If `N = 1`, `Collate(T)` is `T`.",
            "Reduce :: All initial values have to form an identity under "
            "`computation`."],
        "reduce.f32_s32.spec_example_argmax": [
            "Variadic Reduce :: Applying this reduction to an array of "
            "values, and an array of sequential", "Variadic Reduce :: The "
            "operands are supplied to the computation in the following "
            "order:", "Reduce :: If `N > 1`, `Collate(T_0, ..., T_{N-1})` "
            "is a tuple of `N` elements"],
        "reduce.s32_f16.variadic_sum_min": [
            "Reduce :: If `N > 1`, `Collate(T_0, ..., T_{N-1})` is a tuple "
            "of `N` elements", "Reduce :: The output of the op is "
            "`Collate(Q_0, ..., Q_N)` where"],
    })
    # Rejected modules.
    cases.append(reject(
        "reduce.reject.init_type",
        "Reduce :: N scalars of types",
        u.module([add], ["f32[2,3]", "s32[]"], "f32[2]",
                 "reduce(p0, p1), dimensions={1}, to_apply=add"),
        "operation_semantics.md, Reduce"))
    cases.append(reject(
        "reduce.reject.init_not_scalar",
        "Reduce :: N scalars of types",
        u.module([add], ["f32[2,3]", "f32[2]"], "f32[2]",
                 "reduce(p0, p1), dimensions={1}, to_apply=add"),
        "operation_semantics.md, Reduce"))
    cases.append(reject(
        "reduce.reject.dimension_out_of_range", R_DIMS,
        u.module([add], ["f32[2,3]", "f32[]"], "f32[2]",
                 "reduce(p0, p1), dimensions={2}, to_apply=add"),
        "operation_semantics.md, Reduce"))
    cases.append(reject(
        "reduce.reject.result_shape",
        "Reduce :: The number of dimensions of each returned array is",
        u.module([add], ["f32[2,3]", "f32[]"], "f32[3]",
                 "reduce(p0, p1), dimensions={1}, to_apply=add"),
        "shape.inferred"))
    cases.append(reject(
        "reduce.reject.computation_type",
        "Reduce :: computation of type",
        u.module([u.scalar_comp("add", "s32", "add")], ["f32[2,3]", "f32[]"],
                 "f32[2]", "reduce(p0, p1), dimensions={1}, to_apply=add"),
        "operation_semantics.md, Reduce"))
    cases.append(reject(
        "reduce.reject.variadic_dims_differ",
        "Reduce :: All input arrays must have the same dimensions.",
        u.module([sum_min], ["s32[2,3]", "f16[3,2]", "s32[]", "f16[]"],
                 "(s32[3], f16[3])",
                 "reduce(p0, p1, p2, p3), dimensions={0}, to_apply=summin"),
        "operation_semantics.md, Reduce"))
    return cases


# --- reduce-window -----------------------------------------------------------

W_APPLY = ("ReduceWindow :: Applies a reduction function to all elements in "
           "each window of a sequence of N")
W_EX1 = ("ReduceWindow - Example 1 :: Input is a matrix of size [4x6] and "
         "both window_dimensions and")
W_PAD = ("ReduceWindow - Example 1 :: For a non-trivial padding example, "
         "consider computing reduce-window minimum")
W_EX2 = ("ReduceWindow - Example 2 - StableHLO :: Results) The final output "
         "has shape S32[2,2], with values: `[[0,0],[3,4]]`")
W_PADDED = ("ReduceWindow - Example 1 :: Padding is applied to each dimension "
            "of the input and the calculations")


def window_attr(size, stride=None, pad=None, lhs=None, rhs=None):
    parts = ["size=" + "x".join(map(str, size))]
    if stride:
        parts.append("stride=" + "x".join(map(str, stride)))
    if pad:
        parts.append("pad=" + "x".join("%d_%d" % p for p in pad))
    if lhs:
        parts.append("lhs_dilate=" + "x".join(map(str, lhs)))
    if rhs:
        parts.append("rhs_dilate=" + "x".join(map(str, rhs)))
    return "window={%s}" % " ".join(parts)


def rw_case(name, spec, source, t, a, init, op, size, stride=None, pad=None,
            lhs=None, rhs=None, note=None):
    fn = u.binop(op, t)
    out, = u.reduce_window([a], [init], lambda x, y: (fn(x, y),), size,
                           stride or [1] * a.ndim, pad, lhs, rhs)
    mod = u.module([u.scalar_comp("f", t, op)],
                   [u.shp(t, list(a.shape)), u.shp(t, [])],
                   u.shp(t, list(out.shape)),
                   "reduce-window(p0, p1), %s, to_apply=f" % window_attr(
                       size, stride, pad, lhs, rhs))
    return case(name, spec, source, mod, [u.lit(t, a), h.literal(t, init)],
                u.lit(t, out), note=note)


def reduce_window_cases():
    cases = []
    a = np.array([[5, -1, 3, 0, 8, 2], [7, 4, -6, 1, 1, 9],
                  [-2, 0, 2.5, 6, -3, 4], [1, 11, 0, 5, 5, -7]], dtype=object)
    cases.append(rw_case("reduce-window.f32.spec_example_max_2x3", W_EX1,
                         "hand", "f32", a, -u.INF, "maximum", [2, 3],
                         [2, 3], note="the spec's shapes and init "
                         "(MinValue(F32) = -inf); its figure's values are "
                         "not in the text, these are"))
    big = float(np.finfo(np.float32).max)
    v = np.array([10000, 1000, 100, 10, 1], dtype=object)
    mn = u.scalar_comp("f", "f32", "minimum")
    for label, pad, out in [("valid", None, [100, 1]),
                            ("same", [(1, 1)], [1000, 10, 1])]:
        cases.append(case(
            "reduce-window.f32.spec_example_min_%s" % label, W_PAD,
            "spec-example",
            u.module([mn], ["f32[5]", "f32[]"], u.shp("f32", [len(out)]),
                     "reduce-window(p0, p1), %s, to_apply=f"
                     % window_attr([3], [2], pad)),
            [u.lit("f32", v), h.literal("f32", big)], h.literal("f32", out)))
    add = u.scalar_comp("add", "s32", "add")
    cases.append(case(
        "reduce-window.s32.spec_example_2_dilations",
        [W_EX2, "ReduceWindow - Example 2 - StableHLO :: Values 'falling "
         "into' dilation cells are ignored."], "spec-example",
        u.module([add], ["s32[3,2]", "s32[]"], "s32[2,2]",
                 "reduce-window(p0, p1), %s, to_apply=add" % window_attr(
                     [2, 1], [4, 1], [(2, 1), (0, 0)], [2, 1], [3, 1])),
        ["s32[3,2] { {1, 2}, {3, 4}, {5, 6} }", "s32[] 0"],
        "s32[2,2] { {0, 0}, {3, 4} }"))
    # Every element type: a 1-D window of 2, stride 1.
    for t in h.ALL:
        op, init = reduce_op_for(t)
        cases.append(rw_case("reduce-window.%s.%s_1d" % (t, op), W_APPLY,
                             "hand", t, u.arr(t, [5]), init, op, [2]))
    # Padding, strides, dilations on f32 and s32.
    b = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], dtype=object)
    for t in ("f32", "s32"):
        for name, kw in [
                ("pad_sum", dict(size=[2, 2], stride=[1, 1],
                                 pad=[(1, 0), (0, 1)])),
                ("stride_sum", dict(size=[2, 2], stride=[1, 2])),
                ("base_dilation", dict(size=[2, 2], stride=[1, 1],
                                       lhs=[2, 1])),
                ("window_dilation", dict(size=[2, 2], stride=[1, 1],
                                         rhs=[2, 2])),
                ("all_options", dict(size=[2, 2], stride=[2, 1],
                                     pad=[(1, 2), (1, 0)], lhs=[2, 2],
                                     rhs=[1, 2]))]:
            cases.append(rw_case(
                "reduce-window.%s.%s" % (t, name),
                [W_APPLY, W_PADDED] if "pad" in kw else W_APPLY, "hand", t,
                b, 0, "add", kw["size"], kw["stride"], kw.get("pad"),
                kw.get("lhs"), kw.get("rhs")))
    cases.append(rw_case("reduce-window.f32.pad_init_value", W_PADDED,
                         "hand", "f32", np.array([1, 2, 3], dtype=object),
                         10, "add", [2], [1], [(1, 1)],
                         note="padding cells hold the init value, which the "
                         "computation then sees once per padding cell"))
    cases.append(rw_case("reduce-window.f32.window_larger_than_input",
                         W_APPLY, "hand", "f32",
                         np.array([1, 2, 3], dtype=object), 0, "add", [4],
                         [1]))
    cases.append(rw_case("reduce-window.f32.max_nan", W_APPLY, "hand", "f32",
                         np.array([1, u.NAN, 3, 2], dtype=object), -u.INF,
                         "maximum", [2], [1]))
    # Variadic: running max and the index of its first occurrence.
    argmax = """argmax {
  m = f32[] parameter(0)
  i = s32[] parameter(1)
  v = f32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(v, m), direction=GT
  eq = pred[] compare(v, m), direction=EQ
  lt = pred[] compare(j, i), direction=LT
  tie = pred[] and(eq, lt)
  take = pred[] or(gt, tie)
  nm = f32[] select(take, v, m)
  ni = s32[] select(take, j, i)
  ROOT t = (f32[], s32[]) tuple(nm, ni)
}"""
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=object)
    ix = np.arange(8, dtype=object)

    def amax(m, i, v, j):
        take = v > m or (v == m and j < i)
        return (v, j) if take else (m, i)
    om, oi = u.reduce_window([x, ix], [-u.INF, 2 ** 31 - 1], amax, [3], [2])
    cases.append(case(
        "reduce-window.f32_s32.variadic_argmax",
        ["ReduceWindow :: producing a single or a tuple of N "
         "multi-dimensional arrays as output.", W_APPLY], "hand",
        u.module([argmax], ["f32[8]", "s32[8]", "f32[]", "s32[]"],
                 "(f32[3], s32[3])",
                 "reduce-window(p0, p1, p2, p3), window={size=3 stride=2}, "
                 "to_apply=argmax"),
        [u.lit("f32", x), u.lit("s32", ix), "f32[] -inf",
         "s32[] 2147483647"],
        u.tuple_lit([u.lit("f32", om), u.lit("s32", oi)]),
        note="the computation is commutative and associative (ties go to "
        "the lower index), so the order of evaluation does not matter"))
    sub = u.scalar_comp("sub", "f32", "subtract")
    cases.append(case(
        "reduce-window.f32.init_on_left",
        "ReduceWindow :: Similar to [`Reduce`](#reduce), the applied "
        "`computation` is", "hand",
        u.module([sub], ["f32[4]", "f32[]"], "f32[4]",
                 "reduce-window(p0, p1), window={size=1}, to_apply=sub"),
        ["f32[4] {1, -2, 0.5, 10}", "f32[] 3"], "f32[4] {2, 5, 2.5, -7}",
        note="windows of one element: the computation runs once as "
        "f(init, x); subtract shows the order"))
    p = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12],
                  [13, 14, 15, 16]], dtype=object)
    cases.append(rw_case(
        "reduce-window.f32.sum_pool_2x2_nhwc",
        ["ReduceWindow :: A pooling layer can be expressed as a "
         "`ReduceWindow`.", "ReduceWindow - Example 1 :: In order to "
         "specify that no windows overlap with each other,"], "hand", "f32",
        p.reshape(1, 4, 4, 1), 0, "add", [1, 2, 2, 1], [1, 2, 2, 1]))
    u.add_spec(cases, {
        "reduce-window.f32.spec_example_min_valid": [
            "ReduceWindow - Example 1 :: Padding `kValid` computes minimums "
            "over two _valid_ windows:"],
        "reduce-window.f32.spec_example_min_same": [
            "ReduceWindow - Example 1 :: Padding `kSame` first pads the "
            "array so that the shape after", "ReduceWindow - Example 1 :: "
            "Running reduce-window over the padded array operates on three "
            "windows"],
        "reduce-window.s32.spec_example_2": [
            "ReduceWindow - Example 2 - StableHLO :: Step 1) Base dilation "
            "with factor 2 along the row dimension inserts",
            "ReduceWindow - Example 2 - StableHLO :: Padding of 2 rows at "
            "the top and 1 row at the bottom is applied after dilation.",
            "ReduceWindow - Example 2 - StableHLO :: Step 2) A window of "
            "shape [2,1] is defined, with window dilation [3,1].",
            "ReduceWindow - Example 2 - StableHLO :: Step 3) The windows are "
            "then slid across the operand with stride [4,1].",
            "ReduceWindow - Example 2 - StableHLO :: Padding cells are "
            "filled with the `init_value`",
            "ReduceWindow - Example 2 - StableHLO :: The top two windows see "
            "only padding and holes, so their results are 0."],
        "reduce-window.f32.stride_sum": [
            "ReduceWindow - Example 1 :: Stride of 1 in a dimension "
            "specifies that the position of a window in the"],
        "reduce-window.s32.stride_sum": [
            "ReduceWindow - Example 1 :: The figure below illustrates the "
            "use of two different stride"],
        "reduce-window.f32.maximum_1d": [
            "ReduceWindow :: Each output array has the same number of "
            "elements as the number of valid", "ReduceWindow :: If `N = 1`, "
            "`Collate(T)` is `T`."],
        "reduce-window.f32_s32.variadic_argmax": [
            "ReduceWindow :: If `N > 1`, `Collate(T_0, ..., T_{N-1})` is a "
            "tuple of `N` elements", "ReduceWindow - Example 1 :: The "
            "evaluation order of the reduction function is arbitrary"],
    })
    fadd = u.scalar_comp("add", "f32", "add")
    cases.append(reject(
        "reduce-window.reject.operand_dims",
        "ReduceWindow :: All input arrays must have the same dimensions.",
        u.module(["""f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = f32[] parameter(2)
  d = f32[] parameter(3)
  x = f32[] add(a, c)
  y = f32[] add(b, d)
  ROOT t = (f32[], f32[]) tuple(x, y)
}"""], ["f32[4]", "f32[5]", "f32[]", "f32[]"], "(f32[3], f32[4])",
                 "reduce-window(p0, p1, p2, p3), window={size=2}, "
                 "to_apply=f"),
        "operation_semantics.md, ReduceWindow"))
    cases.append(reject(
        "reduce-window.reject.window_rank", W_APPLY,
        u.module([fadd], ["f32[4,4]", "f32[]"], "f32[3]",
                 "reduce-window(p0, p1), window={size=2}, to_apply=add"),
        "operation_semantics.md, ReduceWindow"))
    cases.append(reject(
        "reduce-window.reject.init_type",
        "ReduceWindow :: The N starting values for the",
        u.module([fadd], ["f32[4]", "s32[]"], "f32[3]",
                 "reduce-window(p0, p1), window={size=2}, to_apply=add"),
        "operation_semantics.md, ReduceWindow"))
    cases.append(reject(
        "reduce-window.reject.result_shape", W_APPLY,
        u.module([fadd], ["f32[4]", "f32[]"], "f32[4]",
                 "reduce-window(p0, p1), window={size=2}, to_apply=add"),
        "shape.inferred"))
    return cases


# --- select-and-scatter ------------------------------------------------------

S_DEF = ("SelectAndScatter :: This operation can be considered as a "
         "composite operation that first computes")
S_INIT = ("SelectAndScatter :: Initially, all indices of the output array "
          "are set to `init_value`.")
S_NINE = ("SelectAndScatter :: the element of value 9 is selected by both of "
          "the top windows")
S_LEX = ("SelectAndScatter :: it is called with the property that the first "
         "parameter's index vector is lexicographically less")


def sas_case(name, spec, t, a, src, init, size, stride, pad=None,
             scatter_op="add", note=None, select_dir="GE"):
    def sel(x, y):
        if t == "pred":
            return x >= y if select_dir == "GE" else x <= y
        return x >= y if select_dir == "GE" else x <= y
    out = u.select_and_scatter(a, src, init, sel, u.binop(scatter_op, t),
                               size, stride, pad)
    comps = [u.scalar_comp("sel", t, "compare(a, b), direction=%s"
                           % select_dir, out_t="pred"),
             u.scalar_comp("sc", t, scatter_op)]
    mod = u.module(comps, [u.shp(t, list(a.shape)),
                           u.shp(t, list(src.shape)), u.shp(t, [])],
                   u.shp(t, list(a.shape)),
                   "select-and-scatter(p0, p1, p2), %s, select=sel, "
                   "scatter=sc" % window_attr(size, stride, pad))
    return case(name, spec, "hand", mod,
                [u.lit(t, a), u.lit(t, src), h.literal(t, init)],
                u.lit(t, out), note=note)


def select_and_scatter_cases():
    cases = []
    # The spec's figure (2): overlapping windows both select the 9, and
    # the add scatter gives 2 + 6 = 8 there.
    a = np.array([[7, 2, 5, 3, 8], [3, 8, 9, 3, 4], [1, 5, 7, 5, 6],
                  [0, 6, 2, 10, 2]], dtype=object)
    src = np.array([[2, 6], [3, 1]], dtype=object)
    cases.append(sas_case(
        "select-and-scatter.f32.spec_example_overlap", [S_NINE, S_INIT],
        "f32", a, src, 0, [2, 3], [2, 2],
        note="the figure's layout (windows 2x3, stride 2, the 9 in both "
        "top windows); its other values are not in the text"))
    a = np.array([[7, 2, 5, 3, 10, 2], [3, 8, 9, 3, 1, 1],
                  [1, 5, 7, 5, 6, 0], [0, 6, 2, 7, 2, 8]], dtype=object)
    src = np.array([[2, 6], [3, 1]], dtype=object)
    for t in ("f32", "s32"):
        cases.append(sas_case(
            "select-and-scatter.%s.max_pool_grad" % t,
            [S_DEF, "SelectAndScatter :: `SelectAndScatter` can be used to "
             "backpropagate the gradient values for a pooling layer"],
            t, a, src, 0, [2, 3], [2, 3]))
    # Every element type (non-overlapping windows, so each output element
    # gets at most one source value).
    for t in u.ORDERED:
        x = u.arr(t, [6])
        s = u.arr(t, [3], 3)
        init, op = (0, "add")
        if t == "pred":
            init, op = False, "or"
        elif t == "f8e8m0fnu":
            init, op = 1.0, "multiply"
        cases.append(sas_case("select-and-scatter.%s.ge_%s" % (t, op),
                              [S_DEF, S_INIT], t, x, s, init, [2], [2],
                              scatter_op=op))
    # Ties: select is called with the earlier element first, GE keeps it.
    cases.append(sas_case(
        "select-and-scatter.s32.ties_first", S_LEX, "s32",
        np.array([4, 4, 1, 7, 7, 7], dtype=object),
        np.array([10, 20], dtype=object), 0, [3], [3],
        note="GE keeps the first of equal elements"))
    cases.append(sas_case(
        "select-and-scatter.s32.ties_last_le", S_LEX, "s32",
        np.array([4, 4, 1, 7, 7, 7], dtype=object),
        np.array([10, 20], dtype=object), 0, [3], [3], select_dir="LE",
        note="LE keeps the minimum"))
    cases.append(sas_case(
        "select-and-scatter.f32.padding_same",
        ["SelectAndScatter :: (Padding\\:\\:kSame or", S_DEF], "f32",
        np.array([[1, 5, 2], [8, 3, 4], [0, 6, 9]], dtype=object),
        np.array([[1, 2], [3, 4]], dtype=object), -1, [2, 2], [2, 2],
        pad=[(0, 1), (0, 1)], note="padding cells are never selected"))
    cases.append(sas_case(
        "select-and-scatter.f32.init_value", S_INIT, "f32",
        np.array([1, 5, 9, 2, 0], dtype=object),
        np.array([3, 4], dtype=object), 100, [2], [3],
        note="the 9 is in no window and keeps the init value"))
    u.add_spec(cases, {
        "select-and-scatter.f32.spec_example_overlap": [
            "SelectAndScatter :: Note that when the windows overlap, as in "
            "the figure (2) below, an index", "SelectAndScatter :: The "
            "figure below shows examples of using `SelectAndScatter`, with "
            "the", "SelectAndScatter :: The evaluation order of the "
            "`scatter` function is arbitrary"],
        "select-and-scatter.s32.ties_first": [
            "SelectAndScatter :: The `select` function returns `true` if the "
            "first parameter is selected"],
        "select-and-scatter.f32.ge_add": [
            "SelectAndScatter :: The function `scatter` is applied at each "
            "selected index in the output array.", "SelectAndScatter :: It "
            "combines the two parameters and returns a scalar value that's"],
        "select-and-scatter.s32.ge_add": [
            "SelectAndScatter :: Current value at the selected index in the "
            "output array", "SelectAndScatter :: The scatter value from "
            "`source` that applies to the selected index"],
    })
    sel = u.scalar_comp("sel", "f32", "compare(a, b), direction=GE",
                        out_t="pred")
    sc = u.scalar_comp("sc", "f32", "add")
    cases.append(reject(
        "select-and-scatter.reject.source_shape",
        "SelectAndScatter :: `source` array must have the same shape as the "
        "result of applying a `ReduceWindow`",
        u.module([sel, sc], ["f32[4]", "f32[3]", "f32[]"], "f32[4]",
                 "select-and-scatter(p0, p1, p2), window={size=2 stride=2}, "
                 "select=sel, scatter=sc"),
        "operation_semantics.md, SelectAndScatter"))
    cases.append(reject(
        "select-and-scatter.reject.select_not_pred",
        "SelectAndScatter :: binary computation of type `T, T",
        u.module([u.scalar_comp("sel", "f32", "maximum"), sc],
                 ["f32[4]", "f32[2]", "f32[]"], "f32[4]",
                 "select-and-scatter(p0, p1, p2), window={size=2 stride=2}, "
                 "select=sel, scatter=sc"),
        "operation_semantics.md, SelectAndScatter"))
    return cases


FILES = [
    ("reduce", "reduce", reduce_cases),
    ("reduce-window", "reduce-window", reduce_window_cases),
    ("select-and-scatter", "select-and-scatter", select_and_scatter_cases),
]


def main():
    for stem, op, fn in FILES:
        cases = fn()
        path = h.write_file(FAMILY, stem, op, cases,
                            "%s (operation_semantics.md)." % op, GEN)
        print("%s: %d cases" % (path, len(cases)))


if __name__ == "__main__":
    main()
