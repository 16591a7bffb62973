"""Writes bitcast.hlotest and domain.hlotest: the two HLO-only ops of the
spec that no other generator covers. They live in FAMILY (io/ for now: the
helper that wrote them owns only linalg, convolution, random, collectives
and io; move them by changing FAMILY and regenerating).

The spec's sections say only that these ops "may appear in HLO dumps".
Their values follow XLA: `bitcast` reinterprets the operand's buffer in
its physical layout as the result shape (row-major unless a layout is
given), also across element types of one byte size; `domain` passes its
operand through. Expected values: numpy (`view` for the bits, reshape and
transpose for the layouts)."""
import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_misc.py"
FAMILY = "io"

BITCAST = "Bitcast :: `Bitcast` may appear in HLO dumps, but they are not intended to be constructed manually by end users."
DOMAIN = "Domain :: `Domain` may appear in HLO dumps, but it is not intended to be constructed manually by end users."


def bitcast_cases():
    cs = []
    x = np.arange(1, 7).reshape(2, 3)
    for out in ([3, 2], [6], [1, 6, 1], [2, 1, 3]):
        mod = U.entry(["s32[2,3]"], [], "%s bitcast(p0)" % U.shape("s32",
                                                                   out))
        cs.append(H.Case("bitcast.s32.shape_%s" % "x".join(map(str, out)),
                         [BITCAST], "hand", mod, args=[U.lit("s32", x)],
                         expect=U.lit("s32", x.reshape(out)),
                         tolerance="exact",
                         note="default (row-major) layouts: the elements "
                              "keep their row-major order"))
    # A column-major operand read as a row-major [3,2]: a transpose.
    mod = U.entry(["f32[2,3]"], ["c = f32[2,3]{0,1} copy(p0)"],
                  "f32[3,2]{1,0} bitcast(c)")
    cs.append(H.Case("bitcast.f32.layout_transpose", [BITCAST], "hand", mod,
                     args=[U.lit("f32", x)], expect=U.lit("f32", x.T),
                     tolerance="exact",
                     note="the {0,1} copy stores the operand column-major; "
                          "bitcast reinterprets that buffer"))
    pairs = [("f32", "s32", [1.0, -2.0, 0.5]), ("f32", "u32", [1.0, -0.0]),
             ("s32", "f32", [1065353216, -1073741824]),
             ("f16", "s16", [1.0, -2.0]), ("bf16", "u16", [1.0, -2.0]),
             ("f64", "s64", [1.0, -0.5]), ("u8", "s8", [255, 128, 1]),
             ("s64", "u64", [-1, 5])]
    for src, dst, vals in pairs:
        a = np.array(vals, dtype=H.DTYPE[src])
        b = a.view(H.DTYPE[dst])
        mod = U.entry([U.shape(src, [len(vals)])], [],
                      "%s bitcast(p0)" % U.shape(dst, [len(vals)]))
        cs.append(H.Case("bitcast.%s.to_%s" % (src, dst), [BITCAST], "hand",
                         mod, args=[U.lit(src, a)],
                         expect=U.lit(dst, b), tolerance="exact"))
    a = np.array([1.0, -2.0], dtype=np.float32)
    mod = U.entry(["f32[2]"], [], "s16[4] bitcast(p0)")
    cs.append(H.Case("bitcast.f32.to_s16_pairs", [BITCAST], "hand", mod,
                     args=["f32[2] {1, -2}"],
                     expect=U.lit("s16", a.view(np.int16).tolist()),
                     tolerance="exact",
                     note="a narrower type: each f32 gives two s16 in "
                          "little-endian order (XLA CPU)"))
    cs.append(U.reject_case("bitcast.reject.byte_size", [BITCAST], U.entry(
        ["f32[2]"], [], "f32[3] bitcast(p0)")))
    return cs


def domain_cases():
    cs = []
    attr = ('domain={kind="sharding", entry={maximal device=0}, '
            'exit={maximal device=1}}')
    for t in ("f32", "s8", "pred", "c64"):
        vals = {"f32": [1.5, -2, 0], "s8": [-128, 0, 127],
                "pred": [True, False, True], "c64": [1 + 2j, -1, 0.5j]}[t]
        mod = U.entry([U.shape(t, [3])], [], "%s domain(p0), %s" % (
            U.shape(t, [3]), attr))
        lit = U.lit(t, np.array(vals, dtype=object))
        cs.append(H.Case("domain.%s.passes_value" % t, [DOMAIN], "hand", mod,
                         args=[lit], expect=lit, tolerance="exact"))
    mod = U.entry(["f32[2]", "s32[]"], ["tp = (f32[2], s32[]) tuple(p0, p1)"],
                  "(f32[2], s32[]) domain(tp), %s" % attr)
    cs.append(H.Case("domain.tuple.passes_value", [DOMAIN], "hand", mod,
                     args=["f32[2] {1, 2}", "s32[] 3"],
                     expect="(f32[2] {1, 2}, s32[] 3)", tolerance="exact"))
    cs.append(U.reject_case("domain.reject.shape", [DOMAIN], U.entry(
        ["f32[2]"], [], "f32[3] domain(p0), %s" % attr)))
    return cs


def main():
    for stem, cases in (("bitcast", bitcast_cases()),
                        ("domain", domain_cases())):
        H.write_file(FAMILY, stem, stem, cases, __doc__.split("\n\n", 2)[1],
                     GEN)
        print(stem, len(cases))


if __name__ == "__main__":
    main()
