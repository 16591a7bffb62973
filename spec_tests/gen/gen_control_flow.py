"""Generates spec_tests/control_flow/<op>.hlotest: while, conditional
(predicate and indexed forms, out-of-range index), call, tuple,
get-tuple-element, constant, parameter, opt-barrier, after-all and
add-dependency (operation_semantics.md). gen_control_flow_hlo.py writes
the HLO-internal ones (dynamic dimensions, fusion, async, copy-start).

Expected values by hand: these ops move values without arithmetic (or do
a few exact integer steps written out here), so every element type must
come back bit for bit.
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_control_flow.py
"""
import math

import hlotest as h
import structured_util as u

FAMILY = "control_flow"
GEN = "gen_control_flow.py"


def case(name, spec, source, mod, args=(), expect=None, note=None,
         impl=None):
    return h.Case(name, spec, source, mod, args=list(args), expect=expect,
                  note=note, impl=impl)


def reject(name, spec, mod, rule, note=None):
    return h.Case(name, spec, "hand", mod, reject="verify " + rule,
                  note=note)


def special(t, n=6):
    """Edge values of t: extremes, signed zero, inf, NaN where it has them."""
    if t == "pred":
        return [True, False]
    if h.is_int(t):
        lo, hi = h.int_range(t)
        return sorted({lo, hi, 0, min(hi, 1), max(lo, -1)})
    if h.is_complex(t):
        return [complex(-0.0, 1), complex(u.INF, -2), complex(0.5, u.NAN),
                complex(3, -0.0)]
    fi = h.finfo(t)
    out = []
    for v in [float(fi.max), -float(fi.max), float(fi.smallest_normal),
              float(fi.smallest_subnormal), -0.0, u.INF, -u.INF, u.NAN, 1.0]:
        if h.representable(t, v) and not any(
                (x == v and math.copysign(1, x) == math.copysign(1, v)) or
                (math.isnan(x) and math.isnan(v)) for x in out):
            out.append(v)
    return out


# --- while ------------------------------------------------------------------

W_SEQ = ("While :: Sequentially executes the `body` until the `condition` "
         "fails.")
W_LAST = ("While :: A `While` node returns a value of type `T`, which is the "
          "result from the")
W_INIT = ("While :: The T parameters of the computations are initialized "
          "with the `init` value in")
W_EX = ("While :: For 1000 iterations, the loop keeps adding a constant "
        "vector to the accumulator.")


def counted_loop(t, dims, n, body_expr):
    """(s32[], t[dims]) loop running n times; body_expr maps `v`."""
    st = "(s32[], %s)" % u.shp(t, dims)
    cond = """cond {
  s = %s parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(%d)
  ROOT c = pred[] compare(i, n), direction=LT
}""" % (st, n)
    body = """body {
  s = %s parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = %s get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  w = %s %s
  ROOT t = %s tuple(i1, w)
}""" % (st, u.shp(t, dims), u.shp(t, dims), body_expr, st)
    return st, cond, body


def while_cases():
    cases = []
    st, cond, body = counted_loop("f32", [10], 1000, "add(v, c)")
    body = body.replace("  one = s32[] constant(1)",
                        "  one = s32[] constant(1)\n  c = f32[10] constant("
                        "{0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, "
                        "2.5})")
    cvec = [0.25 * (k + 1) for k in range(10)]
    cases.append(case(
        "while.s32_f32.spec_example_1000_iterations", [W_EX, W_SEQ],
        "hand",
        u.module([cond, body], ["f32[10]"], st, "while(t0), condition=cond, "
                 "body=body", extra="z = s32[] constant(0)\n"
                 "t0 = %s tuple(z, p0)" % st),
        [h.literal("f32", [0.0] * 10)],
        u.tuple_lit(["s32[] 1000", h.literal("f32", [1000 * c
                                                     for c in cvec])]),
        note="the spec's pseudocode (init {0, zero_vector[10]}); its "
        "constant vector has no values, these sums are exact"))
    # Every element type: the state rides along and is reversed 3 times.
    for t in h.ALL:
        st, cond, body = counted_loop(t, [3], 3, "reverse(v), dimensions={0}")
        x = u.arr(t, [3])
        cases.append(case(
            "while.%s.carry_reverse" % t, [W_SEQ, W_LAST], "hand",
            u.module([cond, body], [u.shp(t, [3])], st,
                     "while(t0), condition=cond, body=body",
                     extra="z = s32[] constant(0)\nt0 = %s tuple(z, p0)"
                     % st),
            [u.lit(t, x)], u.tuple_lit(["s32[] 3", u.lit(t, x[::-1])])))
    st, cond, body = counted_loop("s32", [2], 0, "add(v, v)")
    cases.append(case(
        "while.s32.zero_iterations", [W_INIT, W_LAST], "hand",
        u.module([cond, body], ["s32[2]"], st,
                 "while(t0), condition=cond, body=body",
                 extra="z = s32[] constant(0)\nt0 = %s tuple(z, p0)" % st),
        ["s32[2] {7, -7}"], "(s32[] 0, s32[2] {7, -7})",
        note="the condition fails at once: the result is init"))
    scalar = """cond {
  x = s32[] parameter(0)
  k = s32[] constant(100)
  ROOT c = pred[] compare(x, k), direction=LT
}

body {
  x = s32[] parameter(0)
  ROOT y = s32[] add(x, x)
}"""
    for start, out in [(3, 192), (1, 128), (100, 100)]:
        cases.append(case(
            "while.s32.scalar_state_from_%d" % start, W_SEQ, "hand",
            scalar_while(scalar), ["s32[] %d" % start], "s32[] %d" % out))
    # A loop whose trip count depends on data: Collatz steps of n.
    collatz = """cond {
  s = (s32[], s32[]) parameter(0)
  n = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  ROOT c = pred[] compare(n, one), direction=GT
}

body {
  s = (s32[], s32[]) parameter(0)
  n = s32[] get-tuple-element(s), index=0
  k = s32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  two = s32[] constant(2)
  three = s32[] constant(3)
  r = s32[] remainder(n, two)
  odd = pred[] compare(r, one), direction=EQ
  h = s32[] divide(n, two)
  m = s32[] multiply(n, three)
  m1 = s32[] add(m, one)
  n1 = s32[] select(odd, m1, h)
  k1 = s32[] add(k, one)
  ROOT t = (s32[], s32[]) tuple(n1, k1)
}"""
    for n in (1, 6, 27):
        steps, x = 0, n
        while x > 1:
            x = 3 * x + 1 if x % 2 else x // 2
            steps += 1
        cases.append(case(
            "while.s32.data_dependent_%d" % n, W_SEQ, "hand",
            u.module([collatz], ["s32[]"], "(s32[], s32[])",
                     "while(t0), condition=cond, body=body",
                     extra="z = s32[] constant(0)\n"
                     "t0 = (s32[], s32[]) tuple(p0, z)"),
            ["s32[] %d" % n], "(s32[] 1, s32[] %d)" % steps))
    u.add_spec(cases, {
        "while.s32_f32.spec_example": [
            "While :: The type `T` in this example is a `Tuple` consisting "
            "of an `int32` for the", "While :: One main use case of the "
            "`While` node is to implement the repeated execution",
            "While :: Simplified pseudocode is shown below with a graph that "
            "represents the computation."],
        "while.s32.data_dependent": [
            "While :: This is similar to a typical while loop in many other "
            "languages except for"],
    })
    bad_body = """cond {
  x = s32[] parameter(0)
  ROOT c = pred[] constant(false)
}

body {
  x = s32[] parameter(0)
  ROOT y = f32[] convert(x)
}"""
    cases.append(reject(
        "while.reject.body_type",
        ["While :: XlaComputation of type `T -> T` which",
         "While :: The shape of the type `T` is statically determined and "
         "must be the same across"],
        scalar_while(bad_body), "operation_semantics.md, While"))
    bad_cond = """cond {
  x = s32[] parameter(0)
  ROOT c = s32[] constant(0)
}

body {
  x = s32[] parameter(0)
  ROOT y = s32[] add(x, x)
}"""
    cases.append(reject(
        "while.reject.condition_not_pred",
        "While :: XlaComputation of type `T -> PRED` which",
        scalar_while(bad_cond), "operation_semantics.md, While"))
    return cases


def scalar_while(comps):
    return u.module([comps], ["s32[]"], "s32[]",
                    "while(p0), condition=cond, body=body")


# --- conditional ------------------------------------------------------------

C_PRED = ("Conditional :: Executes `true_computation` if `predicate` is "
          "`true`, `false_computation` if")
C_IDX = ("Conditional :: Executes `branch_computations[branch_index]`, and "
         "returns the result.")
C_OOR = ("Conditional :: If `branch_index` is an `S32` which is < 0 or >= N, "
         "then `branch_computations[N-1]`")
C_ONE = ("Conditional :: Note that only one of the `branch_computations` "
         "will be executed depending on")


def cond_module(t, dims):
    s = u.shp(t, dims)
    comps = ["""on_true {
  x = %s parameter(0)
  ROOT y = %s reverse(x), dimensions={0}
}""" % (s, s), """on_false {
  x = %s parameter(0)
  ROOT y = %s copy(x)
}""" % (s, s)]
    return u.module(comps, ["pred[]", s, s], s,
                    "conditional(p0, p1, p2), true_computation=on_true, "
                    "false_computation=on_false")


def conditional_cases():
    cases = []
    for t in h.ALL:
        x, y = u.arr(t, [3]), u.arr(t, [3], 1)
        for pv in (True, False):
            cases.append(case(
                "conditional.%s.pred_%s" % (t, str(pv).lower()), C_PRED,
                "hand", cond_module(t, [3]),
                ["pred[] %s" % str(pv).lower(), u.lit(t, x), u.lit(t, y)],
                u.lit(t, x[::-1] if pv else y)))
    # Different operand types per branch, same result type.
    mixed = ["""on_true {
  x = s32[2] parameter(0)
  ROOT y = f32[2] convert(x)
}""", """on_false {
  x = (f32[2], f32[2]) parameter(0)
  a = f32[2] get-tuple-element(x), index=0
  b = f32[2] get-tuple-element(x), index=1
  ROOT y = f32[2] subtract(a, b)
}"""]
    for pv, out in [(True, "f32[2] {3, -4}"), (False, "f32[2] {0.5, 6}")]:
        cases.append(case(
            "conditional.s32_f32.pred_%s_operand_types" % str(pv).lower(),
            "Conditional :: The type of the returned value of "
            "`true_computation` and `false_computation` must be the same.",
            "hand",
            u.module(mixed, ["pred[]", "s32[2]", "f32[2]", "f32[2]"],
                     "f32[2]", "conditional(p0, p1, tf), "
                     "true_computation=on_true, false_computation=on_false",
                     extra="tf = (f32[2], f32[2]) tuple(p2, p3)"),
            ["pred[] %s" % str(pv).lower(), "s32[2] {3, -4}",
             "f32[2] {1, 2}", "f32[2] {0.5, -4}"], out))
    # Indexed form: three branches, every index including out of range.
    branches = ["""b0 {
  x = s32[] parameter(0)
  k = s32[] constant(10)
  ROOT y = s32[] add(x, k)
}""", """b1 {
  x = s32[] parameter(0)
  k = s32[] constant(100)
  ROOT y = s32[] multiply(x, k)
}""", """b2 {
  x = f32[] parameter(0)
  ROOT y = s32[] convert(x)
}"""]
    mod = u.module(branches, ["s32[]", "s32[]", "f32[]"], "s32[]",
                   "conditional(p0, p1, p1, p2), "
                   "branch_computations={b0, b1, b2}")
    for idx, out, spec in [
            (0, 17, C_IDX), (1, 700, C_IDX), (2, -3, C_IDX),
            (3, -3, C_OOR), (-1, -3, C_OOR), (2147483647, -3, C_OOR),
            (-2147483648, -3, C_OOR), (100, -3, C_OOR)]:
        label = ("m%d" % -idx) if idx < 0 else str(idx)
        cases.append(case(
            "conditional.s32.index_%s" % label, [spec, C_ONE], "hand", mod,
            ["s32[] %d" % idx, "s32[] 7", "f32[] -3.5"], "s32[] %d" % out,
            note="branch 2 (the last) runs for every index outside [0, 3)"
            if spec == C_OOR else None))
    one = ["""only {
  x = f32[2] parameter(0)
  ROOT y = f32[2] negate(x)
}"""]
    for idx in (0, 5, -1):
        cases.append(case(
            "conditional.f32.single_branch_index_%s" % (
                ("m%d" % -idx) if idx < 0 else idx), [C_IDX, C_OOR], "hand",
            u.module(one, ["s32[]", "f32[2]"], "f32[2]",
                     "conditional(p0, p1), branch_computations={only}"),
            ["s32[] %d" % idx, "f32[2] {1, -2}"], "f32[2] {-1, 2}"))
    # A branch that would fail at run time is not executed.
    trap = ["""safe {
  x = s32[] parameter(0)
  ROOT y = s32[] copy(x)
}""", """spin {
  x = s32[] parameter(0)
  ROOT y = s32[] while(x), condition=forever, body=step
}""", """forever {
  x = s32[] parameter(0)
  ROOT c = pred[] constant(true)
}""", """step {
  x = s32[] parameter(0)
  ROOT y = s32[] copy(x)
}"""]
    trap = [trap[2], trap[3], trap[0], trap[1]]
    cases.append(case(
        "conditional.s32.other_branch_not_executed",
        ["Conditional :: Note that only one of `true_computation` and "
         "`false_computation` will be", C_PRED], "hand",
        u.module(trap, ["pred[]", "s32[]"], "s32[]",
                 "conditional(p0, p1, p1), true_computation=safe, "
                 "false_computation=spin"),
        ["pred[] true", "s32[] 42"], "s32[] 42",
        note="the false branch never terminates; running it would hang"))
    u.add_spec(cases, {
        "conditional.f32.pred_true": [
            "Conditional :: The `true_computation` must take in a single "
            "argument of type $T_0$ and will"],
        "conditional.f32.pred_false": [
            "Conditional :: The `false_computation` must take in a single "
            "argument of type $T_1$ and will"],
        "conditional.s32.index_1": [
            "Conditional :: Each `branch_computations[b]` must take in a "
            "single argument of type $T_b$"],
    })
    cases.append(reject(
        "conditional.reject.result_types_differ",
        "Conditional :: The type of the returned value of each "
        "`branch_computations[b]` must be the same.",
        u.module(branches[:2] + ["""b2 {
  x = f32[] parameter(0)
  ROOT y = f32[] copy(x)
}"""], ["s32[]", "s32[]", "f32[]"], "s32[]",
                 "conditional(p0, p1, p1, p2), "
                 "branch_computations={b0, b1, b2}"),
        "operation_semantics.md, Conditional"))
    cases.append(reject(
        "conditional.reject.operand_type",
        "Conditional :: will be invoked with `branch_operands[b]` which "
        "must be of the same type.",
        u.module(branches, ["s32[]", "s32[]", "s32[]"], "s32[]",
                 "conditional(p0, p1, p1, p2), "
                 "branch_computations={b0, b1, b2}"),
        "operation_semantics.md, Conditional"))
    cases.append(reject(
        "conditional.reject.index_type",
        "Conditional :: Scalar of type `S32`",
        u.module(branches, ["f32[]", "s32[]", "f32[]"], "s32[]",
                 "conditional(p0, p1, p1, p2), "
                 "branch_computations={b0, b1, b2}"),
        "operation_semantics.md, Conditional"))
    cases.append(reject(
        "conditional.reject.predicate_not_scalar",
        "Conditional :: Scalar of type `PRED`",
        cond_module("f32", [3]).replace("p0 = pred[] parameter(0)",
                                        "p0 = pred[2] parameter(0)"),
        "operation_semantics.md, Conditional"))
    return cases


# --- call, tuple, get-tuple-element ------------------------------------------

CALL = "Call :: Invokes a computation with the given arguments."
CALL0 = "Call :: It is allowed to have no `operands`."
CALL_ARITY = ("Call :: The arity and types of the `operands` must match the "
              "parameters of the")


def call_cases():
    cases = []
    for t in h.ALL:
        x, y = u.arr(t, [2]), u.arr(t, [3], 2)
        comp = """swap {
  a = %s parameter(0)
  b = %s parameter(1)
  ROOT t = (%s, %s) tuple(b, a)
}""" % (u.shp(t, [2]), u.shp(t, [3]), u.shp(t, [3]), u.shp(t, [2]))
        cases.append(case(
            "call.%s.swap" % t, CALL, "hand",
            u.module([comp], [u.shp(t, [2]), u.shp(t, [3])],
                     "(%s, %s)" % (u.shp(t, [3]), u.shp(t, [2])),
                     "call(p0, p1), to_apply=swap"),
            [u.lit(t, x), u.lit(t, y)],
            u.tuple_lit([u.lit(t, y), u.lit(t, x)])))
    cases.append(case(
        "call.f32.no_operands", CALL0, "hand",
        u.module(["""k {
  ROOT c = f32[2] constant({1.5, -2})
}"""], [], "f32[2]", "call(), to_apply=k"), [], "f32[2] {1.5, -2}"))
    nested = ["""inner {
  x = s32[] parameter(0)
  ROOT y = s32[] multiply(x, x)
}""", """outer {
  x = s32[] parameter(0)
  s = s32[] call(x), to_apply=inner
  ROOT y = s32[] add(s, x)
}"""]
    cases.append(case(
        "call.s32.nested", CALL, "hand",
        u.module(nested, ["s32[]"], "s32[]", "call(p0), to_apply=outer"),
        ["s32[] 6"], "s32[] 42"))
    cases.append(case(
        "call.s32.same_computation_twice", CALL, "hand",
        u.module(nested[:1], ["s32[]"], "s32[]", "call(c1), to_apply=inner",
                 extra="c1 = s32[] call(p0), to_apply=inner"),
        ["s32[] -3"], "s32[] 81"))
    cases.append(reject(
        "call.reject.arity", CALL_ARITY,
        u.module(nested[:1], ["s32[]", "s32[]"], "s32[]",
                 "call(p0, p1), to_apply=inner"),
        "operation_semantics.md, Call"))
    cases.append(reject(
        "call.reject.operand_type", CALL_ARITY,
        u.module(nested[:1], ["f32[]"], "s32[]", "call(p0), to_apply=inner"),
        "operation_semantics.md, Call"))
    return cases


TUP = ("Tuple :: A tuple containing a variable number of data handles, each "
       "of which has its own")
TUP_EX = "Tuple :: let t: (f32[10], s32) = tuple(v, s);"
GTE = ("GetTupleElement :: Indexes into a tuple with a "
       "compile-time-constant value.")
GTE_EX = ("GetTupleElement :: let element_1: s32 = gettupleelement(t, 1); "
          "// Inferred shape matches s32.")


def tuple_cases():
    cases = []
    v = h.literal("f32", list(range(10)))
    cases.append(case(
        "tuple.f32_s32.spec_example", TUP_EX, "spec-example",
        u.module([], ["f32[10]", "s32[]"], "(f32[10], s32[])",
                 "tuple(p0, p1)"),
        [v, "s32[] 5"], "(%s, s32[] 5)" % v))
    for t in h.ALL:
        x = u.arr(t, [2])
        cases.append(case(
            "tuple.%s.pair" % t, TUP, "hand",
            u.module([], [u.shp(t, [2]), u.shp(t, [])],
                     "(%s, %s[])" % (u.shp(t, [2]), t), "tuple(p0, p1)"),
            [u.lit(t, x), h.literal(t, x[1])],
            u.tuple_lit([u.lit(t, x), h.literal(t, x[1])])))
    cases.append(case(
        "tuple.mixed.nested", TUP, "hand",
        u.module([], ["s8[2]", "pred[]"], "((s8[2], pred[]), s8[2], ())",
                 "tuple(a, p0, e)",
                 extra="a = (s8[2], pred[]) tuple(p0, p1)\ne = () tuple()"),
        ["s8[2] {-1, 2}", "pred[] true"],
        "((s8[2] {-1, 2}, pred[] true), s8[2] {-1, 2}, ())"))
    u.add_spec(cases, {"tuple.f32_s32.spec_example": [
        "Tuple :: Tuples can be deconstructed (accessed) via the",
        "Tuple :: In HLO, tuples are needed for most ops that return >1 "
        "result."]})
    cases.append(case(
        "tuple.empty", TUP, "hand",
        u.module([], [], "()", "tuple()"), [], "()"))
    return cases


def gte_cases():
    cases = []
    v = h.literal("f32", list(range(10)))
    cases.append(case(
        "get-tuple-element.s32.spec_example", [GTE_EX, GTE], "spec-example",
        u.module([], ["f32[10]", "s32[]"], "s32[]",
                 "get-tuple-element(t), index=1",
                 extra="t = (f32[10], s32[]) tuple(p0, p1)"),
        [v, "s32[] 5"], "s32[] 5"))
    cases.append(case(
        "get-tuple-element.f32.spec_example_index_0", GTE, "spec-example",
        u.module([], ["f32[10]", "s32[]"], "f32[10]",
                 "get-tuple-element(t), index=0",
                 extra="t = (f32[10], s32[]) tuple(p0, p1)"),
        [v, "s32[] 5"], v))
    for t in h.ALL:
        x = u.arr(t, [3])
        cases.append(case(
            "get-tuple-element.%s.from_parameter" % t, GTE, "hand",
            u.module([], ["(s32[], %s)" % u.shp(t, [3])], u.shp(t, [3]),
                     "get-tuple-element(p0), index=1"),
            [u.tuple_lit(["s32[] 9", u.lit(t, x)])], u.lit(t, x)))
    cases.append(case(
        "get-tuple-element.u8.nested", GTE, "hand",
        u.module([], ["((u8[2], f16[]), s32[])"], "u8[2]",
                 "get-tuple-element(a), index=0",
                 extra="a = (u8[2], f16[]) get-tuple-element(p0), index=0"),
        ["((u8[2] {255, 1}, f16[] 0.5), s32[] 3)"], "u8[2] {255, 1}"))
    cases.append(reject(
        "get-tuple-element.reject.index_out_of_range",
        [GTE, "GetTupleElement :: The value must be a compile-time-constant "
         "so that shape inference can"],
        u.module([], ["(f32[2], s32[])"], "s32[]",
                 "get-tuple-element(p0), index=2"),
        "operation_semantics.md, GetTupleElement"))
    cases.append(reject(
        "get-tuple-element.reject.not_a_tuple", GTE,
        u.module([], ["f32[2]"], "f32[2]", "get-tuple-element(p0), index=0"),
        "operation_semantics.md, GetTupleElement"))
    return cases


# --- constant, parameter, barriers, tokens -----------------------------------

CONST = "Constant :: Produces an `output` from a constant `literal`."
PARAM = ("Parameter :: `Parameter` represents an argument input to a "
         "computation.")


def constant_cases():
    cases = []
    for t in h.ALL:
        vals = special(t)
        text = h.literal(t, vals)
        cases.append(case(
            "constant.%s.edge_values" % t, CONST, "hand",
            u.module([], [], u.shp(t, [len(vals)]),
                     "constant(%s)" % text.split(" ", 1)[1]), [], text))
        x = u.arr(t, [2, 2])
        cases.append(case(
            "constant.%s.2d" % t, CONST, "hand",
            u.module([], [], u.shp(t, [2, 2]),
                     "constant(%s)" % u.lit(t, x).split(" ", 1)[1]), [],
            u.lit(t, x)))
    cases.append(case(
        "constant.f32.scalar_and_empty", CONST, "hand",
        u.module([], [], "(f32[], f32[0], s32[2,0])", "tuple(a, b, c)",
                 extra="a = f32[] constant(-2.5)\nb = f32[0] constant({})\n"
                 "c = s32[2,0] constant({ {}, {} })"), [],
        "(f32[] -2.5, f32[0] {}, s32[2,0] { {}, {} })"))
    return cases


def parameter_cases():
    cases = []
    for t in h.ALL:
        vals = special(t)
        text = h.literal(t, vals)
        shape = u.shp(t, [len(vals)])
        cases.append(case(
            "parameter.%s.edge_values" % t, PARAM, "hand",
            "HloModule m\nENTRY e {\n  ROOT p0 = %s parameter(0)\n}"
            % shape, [text], text))
    cases.append(case(
        "parameter.mixed.order", PARAM, "hand",
        u.module([], ["s32[]", "f16[2]", "(pred[], u8[])"],
                 "((pred[], u8[]), s32[], f16[2])", "tuple(p2, p0, p1)"),
        ["s32[] -1", "f16[2] {0.5, -inf}", "(pred[] false, u8[] 200)"],
        "((pred[] false, u8[] 200), s32[] -1, f16[2] {0.5, -inf})",
        note="parameter(i) takes the i-th argument, whatever the order of "
        "definition"))
    return cases


OB = ("OptimizationBarrier :: Ensures that all inputs are evaluated before "
      "any operators that depend on the")


def opt_barrier_cases():
    cases = []
    for t in h.ALL:
        x = u.arr(t, [3])
        cases.append(case(
            "opt-barrier.%s.tuple" % t, OB, "hand",
            u.module([], [u.shp(t, [3]), "s32[]"],
                     "(%s, s32[])" % u.shp(t, [3]), "opt-barrier(t)",
                     extra="t = (%s, s32[]) tuple(p0, p1)" % u.shp(t, [3])),
            [u.lit(t, x), "s32[] 4"],
            u.tuple_lit([u.lit(t, x), "s32[] 4"])))
    u.add_spec(cases, {"opt-barrier.f32.tuple": [
        "OptimizationBarrier :: Blocks any optimization pass from moving "
        "computations across the barrier."]})
    cases.append(case(
        "opt-barrier.f32.one_element_tuple", OB, "hand",
        u.module([], ["f32[2]"], "(f32[2])", "opt-barrier(t)",
                 extra="t = (f32[2]) tuple(p0)"),
        ["f32[2] {-0, nan}"], "(f32[2] {-0, nan})",
        note="HLO's opt-barrier takes a tuple (XLA wraps the operands)"))
    return cases


AA = ("AfterAll :: AfterAll takes a variadic number of tokens and produces "
      "a single token.")
AD = ("AddDependency :: `AddDependency` may appear in HLO dumps, but they "
      "are not intended to be")


def token_cases():
    after = [case(
        "after-all.token.join", [AA, "AfterAll :: `AfterAll` can be used as "
                                 "a join of tokens for ordering"], "hand",
        u.module([], ["f32[2]"], "(f32[2], token[])", "tuple(p0, t3)",
                 extra="t0 = token[] after-all()\nt1 = token[] after-all()\n"
                 "t3 = token[] after-all(t0, t1)"),
        ["f32[2] {1, 2}"], None,
        impl="a token has no value to compare; the data passes through")]
    after.append(case(
        "after-all.s32.data_unchanged",
        [AA, "AfterAll :: Tokens are primitive types which can be threaded "
         "between side-effecting"], "hand",
        u.module([], ["s32[2]"], "s32[2]", "add-dependency(p0, t1)",
                 extra="t0 = token[] after-all()\nt1 = token[] after-all(t0)"),
        ["s32[2] {5, -6}"], "s32[2] {5, -6}"))
    after.append(reject(
        "after-all.reject.non_token_operand", AA,
        u.module([], ["f32[2]"], "token[]", "after-all(p0)"),
        "operation_semantics.md, AfterAll"))
    dep = []
    for t in h.ALL:
        x = u.arr(t, [2])
        dep.append(case(
            "add-dependency.%s.passes_value" % t, AD, "hand",
            u.module([], [u.shp(t, [2])], u.shp(t, [2]),
                     "add-dependency(p0, tk)",
                     extra="tk = token[] after-all()"),
            [u.lit(t, x)], u.lit(t, x)))
    return after, dep


def main():
    after, dep = token_cases()
    files = [
        ("while", "while", while_cases()),
        ("conditional", "conditional", conditional_cases()),
        ("call", "call", call_cases()),
        ("tuple", "tuple", tuple_cases()),
        ("get-tuple-element", "get-tuple-element", gte_cases()),
        ("constant", "constant", constant_cases()),
        ("parameter", "parameter", parameter_cases()),
        ("opt-barrier", "opt-barrier", opt_barrier_cases()),
        ("after-all", "after-all", after),
        ("add-dependency", "add-dependency", dep),
    ]
    for stem, op, cases in files:
        path = h.write_file(FAMILY, stem, op, cases,
                            "%s (operation_semantics.md)." % op, GEN)
        print("%s: %d cases" % (path, len(cases)))


if __name__ == "__main__":
    main()
