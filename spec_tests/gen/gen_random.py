"""Writes spec_tests/random/{rng-bit-generator,rng,
rng-get-and-update-state}.hlotest.

rng-bit-generator bits: recorded from jax.lax.rng_bit_generator on XLA CPU
(jax 0.10.2, x64), through tools/gen/random_rng_golden.py's `generate`
(u64[3] Philox states go through an edited lowered module). The spec does
not fix the bits ("not guaranteed to be deterministic between backends"),
so these cases are `source: jax`; the `deterministic` cases (two runs on one
state agree) hold on every backend. rng (uniform, normal): the values are
not specified, so the cases check properties every backend must meet
(values in [a, b), a one-value interval, sigma 0), shapes and rejections."""
import os
import sys

import numpy as np

import hlotest as H
import kernels_util as U

sys.path.insert(0, os.path.join(os.path.dirname(H.SUITE), "tools", "gen"))

GEN = "gen_random.py"

RBG = "RngBitGenerator :: Generates an output with a given shape filled with uniform random bits using the specified algorithm (or backend default) and returns an updated state (with the same shape as initial state) and the generated random data."
RBG_DET = "RngBitGenerator :: The output is guaranteed to be a deterministic function of the initial state"
RBG_TF = "RngBitGenerator :: `rng_three_fry`: ThreeFry counter-based PRNG algorithm. The `initial_state` shape is `u64[2]` with arbitrary values."
RBG_PH = "RngBitGenerator :: `rng_philox`: Philox algorithm to generate random numbers in parallel. The `initial_state` shape is `u64[3]` with arbitrary values."
RBG_DEF = "RngBitGenerator :: `rng_default`: Backend specific algorithm with backend specific shape requirements."
RBG_STATE = "RngBitGenerator :: It and the required shape and valid values are dependent on the algorithm used."

UNI = "RngUniform :: Constructs an output of a given shape with random numbers generated following the uniform distribution over the interval $[a,b)$."
UNI_TYPES = "RngUniform :: The parameters and output element type have to be a boolean type, an integral type or a floating point types, and the types have to be consistent."
UNI_SCALAR = "RngUniform :: Furthermore, the parameters need to be scalar valued."
UNI_EMPTY = "RngUniform :: If $b <= a$ the result is implementation-defined."
NORM = "RngNormal :: Constructs an output of a given shape with random numbers generated following the $N(\\mu, \\sigma)$ normal distribution."
NORM_TYPES = "RngNormal :: The parameters $\\mu$ and $\\sigma$, and output shape have to have a floating point elemental type."
NORM_SCALAR = "RngNormal :: The parameters furthermore have to be scalar valued."
GAU = "RngGetAndUpdateState :: The API of the various `Rng` operations are internally decomposed into HLO instructions including `RngGetAndUpdateState`."

MAX = (1 << 64) - 1
INT_TYPES = [t for t in H.INTS]


def golden(algorithm, state, t, shape):
    import jax
    from jax import lax
    import random_rng_golden as G
    algo = {"rng_three_fry": lax.RandomAlgorithm.RNG_THREE_FRY,
            "rng_philox": lax.RandomAlgorithm.RNG_PHILOX,
            "rng_default": lax.RandomAlgorithm.RNG_DEFAULT}[algorithm]
    ut = "u" + t[1:]
    new_state, data = G.generate(np.array(state, dtype=np.uint64), shape,
                                 H.DTYPE[ut], algo)
    data = np.asarray(data).astype(H.DTYPE[ut])
    if t != ut:  # same bits, read as the signed type
        data = data.view(H.DTYPE[t])
    return np.asarray(new_state).astype(np.uint64), data


def rbg_module(state_n, t, shape, algorithm):
    st = "u64[%d]" % state_n
    return U.entry([st], [], "(%s, %s) rng-bit-generator(p0), algorithm=%s"
                   % (st, U.shape(t, shape), algorithm))


def rbg_cases():
    cs = []
    states2 = [[0, 0], [0x0123456789ABCDEF, 42], [0xDEADBEEFCAFEF00D,
                                                  MAX - 1]]
    states3 = [[7, 11, 13], [0x0123456789ABCDEF, MAX - 2, 5]]
    wide = ["u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"]
    plan = []
    for algorithm, spec in (("rng_three_fry", RBG_TF),
                            ("rng_philox", RBG_PH),
                            ("rng_default", RBG_DEF)):
        for si, state in enumerate(states2):
            for t in wide:
                shapes = [(2, 3)] if si else [(5,), (2, 3)]
                if t in ("u32", "u64") and si == 0:
                    shapes += [(), (4, 1, 3), (0,)]
                for shape in shapes:
                    plan.append((algorithm, spec, state, t, shape))
        if algorithm != "rng_three_fry":
            for state in states3:
                for t in ("u32", "u64", "u8"):
                    plan.append((algorithm, spec, state, t, (5,)))
    for algorithm, spec, state, t, shape in plan:
        new_state, data = golden(algorithm, state, t, shape)
        name = "rng-bit-generator.%s.%s.s%d_%s_%s" % (
            t, algorithm[4:], len(state),
            "%x" % (state[0] & 0xffff), "x".join(map(str, shape)) or
            "scalar")
        cs.append(H.Case(
            name, [RBG, spec], "jax",
            rbg_module(len(state), t, shape, algorithm),
            args=[U.lit("u64", np.array(state, dtype=object))],
            expect=U.tuple_lit([U.lit("u64", new_state.astype(object)),
                                U.lit(t, data.astype(object) if data.ndim
                                      else data.reshape(()).item())]),
            tolerance="exact",
            note="bits recorded from XLA CPU (jax.lax.rng_bit_generator); "
                 "the spec leaves them backend-specific"))
    # Deterministic in the state, for every type the op accepts.
    for t in INT_TYPES:
        body = ["g1 = (u64[2], %s) rng-bit-generator(p0), algorithm="
                "rng_three_fry" % U.shape(t, [8]),
                "g2 = (u64[2], %s) rng-bit-generator(p0), algorithm="
                "rng_three_fry" % U.shape(t, [8]),
                "d1 = %s get-tuple-element(g1), index=1" % U.shape(t, [8]),
                "d2 = %s get-tuple-element(g2), index=1" % U.shape(t, [8]),
                "s1 = u64[2] get-tuple-element(g1), index=0",
                "s2 = u64[2] get-tuple-element(g2), index=0",
                "same = pred[8] compare(d1, d2), direction=EQ",
                "same_state = pred[2] compare(s1, s2), direction=EQ"]
        mod = U.entry(["u64[2]"], body, "(pred[8], pred[2]) tuple(same, "
                      "same_state)")
        cs.append(H.Case("rng-bit-generator.%s.deterministic" % t,
                         [RBG_DET], "hand", mod,
                         args=["u64[2] {12345, 678}"],
                         expect="(pred[8] {%s}, pred[2] {true, true})" %
                         ", ".join(["true"] * 8), types=t))
    rej = lambda name, spec, st, out, algo: U.reject_case(
        name, spec, U.entry([st], [], "%s rng-bit-generator(p0), algorithm=%s"
                            % (out, algo)))
    cs.append(rej("rng-bit-generator.reject.state_shape_returned", [RBG],
                  "u64[2]", "(u64[3], u32[4])", "rng_three_fry"))
    cs.append(rej("rng-bit-generator.reject.float_data", [RBG],
                  "u64[2]", "(u64[2], f32[4])", "rng_three_fry"))
    cs.append(rej("rng-bit-generator.reject.state_type", [RBG_TF],
                  "u32[2]", "(u32[2], u32[4])", "rng_three_fry"))
    cs.append(rej("rng-bit-generator.reject.three_fry_state_size", [RBG_TF],
                  "u64[3]", "(u64[3], u32[4])", "rng_three_fry"))
    cs.append(rej("rng-bit-generator.reject.not_a_tuple", [RBG],
                  "u64[2]", "u32[4]", "rng_three_fry"))
    return cs


AND = """and_comp {
  x = pred[] parameter(0)
  y = pred[] parameter(1)
  ROOT z = pred[] and(x, y)
}"""


def in_range_module(t, n):
    s = U.shape(t, [n])
    sp = U.shape("pred", [n])
    body = ["x = %s rng(p0, p1), distribution=rng_uniform" % s,
            "lo = %s broadcast(p0), dimensions={}" % s,
            "hi = %s broadcast(p1), dimensions={}" % s,
            "ge = %s compare(x, lo), direction=GE" % sp,
            "lt = %s compare(x, hi), direction=LT" % sp,
            "both = %s and(ge, lt)" % sp,
            "yes = pred[] constant(true)"]
    return U.entry([t + "[]", t + "[]"], body,
                   "pred[] reduce(both, yes), dimensions={0}, "
                   "to_apply=and_comp", extra_comps=AND)


def rng_cases():
    cs = []
    uni_types = ["pred"] + H.INTS + [t for t in H.FLOATS]
    for t in uni_types:
        if t == "pred":
            a, b = 0, 1
        elif H.is_int(t):
            lo, hi = H.int_range(t)
            a, b = (lo, hi) if H.BITS[t] <= 8 else (-5 if lo < 0 else 3, 40)
        elif t == "f8e8m0fnu":
            a, b = 0.25, 8
        else:
            a, b = (-1.5 if t in H.SIGNED_FLOATS else 0.5), 3
        cs.append(H.Case("rng.%s.uniform_in_range" % t, [UNI, UNI_TYPES],
                         "hand", in_range_module(t, 64),
                         args=[U.lit(t, a), U.lit(t, b)],
                         expect="pred[] true", types=t,
                         note="property: every value lies in [a, b)"))
        # A one-value interval [a, next(a)): every element is a.
        if H.is_int(t) or t == "pred":
            a1, b1 = (0, 1) if t == "pred" else (H.int_range(t)[0],
                                                  H.int_range(t)[0] + 1)
        else:
            vals = [float(v) for v, _ in H._grid(t)] if H.BITS[t] <= 16 \
                else None
            if t == "f32":
                a1, b1 = 1.0, float(np.nextafter(np.float32(1), 2))
            elif t == "f64":
                a1, b1 = 1.0, float(np.nextafter(1.0, 2))
            else:
                i = vals.index(1.0)
                a1, b1 = 1.0, vals[i + 1]
        mod = U.entry([t + "[]", t + "[]"], [],
                      "%s rng(p0, p1), distribution=rng_uniform" %
                      U.shape(t, [5]))
        cs.append(H.Case("rng.%s.uniform_one_value" % t, [UNI], "hand", mod,
                         args=[U.lit(t, a1), U.lit(t, b1)],
                         expect=U.lit(t, [a1] * 5),
                         note="[a, b) holds a single value of the type"))
    for t in H.FLOATS:
        if t == "f8e8m0fnu":
            continue  # no zero sigma
        mod = U.entry([t + "[]", t + "[]"], [],
                      "%s rng(p0, p1), distribution=rng_normal" %
                      U.shape(t, [4]))
        cs.append(H.Case("rng.%s.normal_sigma_zero" % t, [NORM, NORM_TYPES],
                         "hand", mod, args=[U.lit(t, 1.5), U.lit(t, 0)],
                         expect=U.lit(t, [1.5] * 4),
                         note="N(mu, 0) is mu"))
    for t in ("f16", "bf16", "f32", "f64"):
        s, sp = U.shape(t, [64]), U.shape("pred", [64])
        body = ["x = %s rng(p0, p1), distribution=rng_normal" % s,
                "fin = %s is-finite(x)" % sp, "yes = pred[] constant(true)"]
        mod = U.entry([t + "[]", t + "[]"], body,
                      "pred[] reduce(fin, yes), dimensions={0}, "
                      "to_apply=and_comp", extra_comps=AND)
        cs.append(H.Case("rng.%s.normal_finite" % t, [NORM], "hand", mod,
                         args=[U.lit(t, 0), U.lit(t, 1)],
                         expect="pred[] true", types=t,
                         note="property: N(0, 1) values are finite"))
    mod = U.entry(["f8e8m0fnu[]", "f8e8m0fnu[]"], [],
                  "f8e8m0fnu[4] rng(p0, p1), distribution=rng_normal")
    cs.append(H.Case("rng.f8e8m0fnu.normal", [NORM_TYPES], "hand", mod,
                     args=["f8e8m0fnu[] 1", "f8e8m0fnu[] 0.5"],
                     impl="values not specified (e8m0 has no zero sigma "
                     "and no negative values)"))
    for t in ("f32", "s32"):
        mod = U.entry([t + "[]", t + "[]"], [],
                      "%s rng(p0, p1), distribution=rng_uniform" %
                      U.shape(t, [3]))
        cs.append(H.Case("rng.%s.uniform_empty_interval" % t, [UNI_EMPTY],
                         "hand", mod, args=[U.lit(t, 3), U.lit(t, 2)],
                         impl="b <= a"))
    mod = U.entry(["f32[]", "f32[]"], [],
                  "f32[0] rng(p0, p1), distribution=rng_uniform")
    cs.append(H.Case("rng.f32.uniform_empty_shape", [UNI], "hand", mod,
                     args=["f32[] 0", "f32[] 1"], expect="f32[0] {}"))
    rej = lambda name, spec, a, b, out, dist: U.reject_case(
        name, spec, U.entry([a, b], [], "%s rng(p0, p1), distribution=%s" %
                            (out, dist)))
    cs.append(rej("rng.reject.uniform_not_scalar", [UNI_SCALAR], "f32[2]",
                  "f32[]", "f32[2]", "rng_uniform"))
    cs.append(rej("rng.reject.normal_not_scalar", [NORM_SCALAR], "f32[]",
                  "f32[3]", "f32[3]", "rng_normal"))
    cs.append(rej("rng.reject.uniform_types_differ", [UNI_TYPES], "f32[]",
                  "f64[]", "f32[3]", "rng_uniform"))
    cs.append(rej("rng.reject.uniform_result_type", [UNI_TYPES], "s32[]",
                  "s32[]", "f32[3]", "rng_uniform"))
    cs.append(rej("rng.reject.normal_integer", [NORM_TYPES], "s32[]",
                  "s32[]", "s32[3]", "rng_normal"))
    cs.append(rej("rng.reject.uniform_complex", [UNI_TYPES], "c64[]",
                  "c64[]", "c64[3]", "rng_uniform"))
    return cs


def gau_cases():
    cs = []
    mod = U.entry([], ["a = u64[2] rng-get-and-update-state(), delta=5",
                       "b = u64[2] rng-get-and-update-state(), delta=7"],
                  "(u64[2], u64[2]) tuple(a, b)")
    cs.append(H.Case("rng-get-and-update-state.u64.runs", [GAU], "hand", mod,
                     impl="the state's value is backend-specific"))
    cs.append(U.reject_case(
        "rng-get-and-update-state.reject.shape", [GAU],
        U.entry([], [], "u64[3] rng-get-and-update-state(), delta=1")))
    cs.append(U.reject_case(
        "rng-get-and-update-state.reject.type", [GAU],
        U.entry([], [], "u32[2] rng-get-and-update-state(), delta=1")))
    return cs


def main():
    import jax
    jax.config.update("jax_enable_x64", True)
    for stem, op, cases, header in (
            ("rng-bit-generator", "rng-bit-generator", rbg_cases(),
             "RngBitGenerator: bits recorded from XLA CPU (jax %s); "
             "deterministic-in-state cases for every type." % jax.__version__),
            ("rng", "rng", rng_cases(),
             "RngUniform / RngNormal (HLO `rng`): properties, shapes and "
             "rejections; the values are not specified."),
            ("rng-get-and-update-state", "rng-get-and-update-state",
             gau_cases(), "RngGetAndUpdateState: runs and shape rules.")):
        H.write_file("random", stem, op, cases, header, GEN)
        print(stem, len(cases))


if __name__ == "__main__":
    main()
