"""Writes spec_tests/convolution/convolution.hlotest. Expected values: the
reference convolution of conv_ref.py (the spec's pseudo-code in exact
Python arithmetic) on integer data, so every case compares exactly.
`--xla` also runs the float-typed structural cases through
jax.lax.conv_general_dilated (XLA CPU) and prints any difference."""
import sys

import numpy as np

import conv_ref as C
import hlotest as H
import kernels_util as U

GEN = "gen_convolution.py"
S = "Conv (Convolution)"

WINDOW = S + " :: Computes a convolution of the kind used in neural networks."
PSEUDO = S + " :: Here is pseudo-code for a 2d convolution with padding and striding:"
BOXES = S + " :: we can take the sum of the element-wise products between the two boxes (similar to a dot product)."
OUTZ = S + " :: there is a separate 3d box of values used for each `output-z` coordinate."
LHS_DIMS = S + " :: The `lhs` argument is an (n+2)-dimensional array describing the base area."
STRIDE = S + " :: The `window_strides` argument specifies the stride of the convolutional window in the spatial dimensions."
PAD = S + " :: The `padding` argument specifies the amount of zero padding to be applied to the base area."
NEGPAD = S + " :: the absolute value of negative padding indicates the number of elements to remove from the specified dimension before doing the convolution."
PADLH = S + " :: The low padding is applied in the direction of lower indices while the high padding is applied in the direction of higher indices."
DIL = S + " :: If the dilation factor in a spatial dimension is d, then d-1 holes are implicitly placed between each of the entries in that dimension, increasing the size of the array."
HOLES = S + " :: The holes are filled with a no-op value, which for convolution means zeroes."
FGC = S + " :: `feature_group_count` needs to be a divisor of both the input and the output feature dimension."
FGC_SPLIT = S + " :: The results of these convolutions are concatenated together in the output feature dimension."
FGC_RHS = S + " :: The input feature dimension of `rhs` needs to be equal to the `lhs` input feature dimension divided by `feature_group_count`"
DEPTHWISE = S + " :: For depthwise convolution the `feature_group_count` argument would be set to the input feature dimension"
BGC = S + " :: `batch_group_count` needs to be a divisor of the size of the `lhs` (input) batch dimension."
BGC_OUT = S + " :: it means that the output batch dimension should be of size `input batch / batch_group_count`."
BGC_FEAT = S + " :: The `batch_group_count` must be a divisor of the output feature size."
BGC_FIG = S + " :: Effectively, we slice each lhs batch into `batch_group_count` groups, and do the same for the output features."
OUT_DIMS = S + " :: One value for each valid placement of the convolutional window."
PLACEMENT = S + " :: The valid placements of the convolutional window are determined by the strides and the size of the base area after padding."
PREF = S + " :: `preferred_element_type` is a scalar element of higher/lower precision output types used for accumulation."
REVERSAL = "ConvGeneralDilated :: flag used to"
GENDIMS = "ConvWithGeneralDimensions :: Same as [`Conv`](#conv-convolution) where dimension numbers are explicit."
DILATED = "ConvGeneralDilated :: Same as [`Conv`](#conv-convolution) where padding configuration, dilation factors, and dimension numbers are explicit."

XLA_CHECK = []  # (name, lhs, rhs, kwargs) for --xla


def conv_case(name, spec, t, lhs, rhs, labels, out_t=None, note=None,
              tolerance="exact", expect=None, **kw):
    out_t = out_t or t
    lhs, rhs = np.asarray(lhs), np.asarray(rhs)
    res = C.conv(lhs, rhs, labels, **kw) if expect is None else expect
    res = np.asarray(res)
    ll, rl, _ = C.parse_labels(labels)
    ksp = [rhs.shape[rl.index(str(i))] for i in range(len(rl) - 2)]
    win = C.window_text(ksp, kw.get("strides"), kw.get("padding"),
                        kw.get("lhs_dil"), kw.get("rhs_dil"),
                        kw.get("reversal"))
    attrs = "dim_labels=" + labels
    if ksp:
        attrs = "window=%s, %s" % (win, attrs)
    if kw.get("fgc", 1) != 1:
        attrs += ", feature_group_count=%d" % kw["fgc"]
    if kw.get("bgc", 1) != 1:
        attrs += ", batch_group_count=%d" % kw["bgc"]
    mod = U.entry([U.shape(t, lhs.shape), U.shape(t, rhs.shape)], [],
                  "%s convolution(p0, p1), %s" % (U.shape(out_t, res.shape),
                                                  attrs))
    if expect is None and H.is_float(t):
        XLA_CHECK.append((name, lhs, rhs, labels, kw, res))
    return H.Case(name, spec, "hand", mod,
                  args=[U.lit(t, lhs), U.lit(t, rhs)],
                  expect=U.lit(out_t, res), tolerance=tolerance, note=note)


R = np.random.RandomState(17)


def ints(*shape, lo=-3, hi=4):
    return R.randint(lo, hi, size=shape)


def structure():
    cs = []
    L2 = "b01f_01io->b01f"
    cs.append(conv_case("convolution.f32.1d_valid", [
        WINDOW, BOXES, S + " :: VALID padding simply means no padding.",
        S + " :: Here, a convolution can be thought of as a n-dimensional window moving across a n-dimensional base area and a computation is performed for each possible position of the window."], "f32",
                        ints(1, 1, 5), ints(1, 1, 3), "bf0_oi0->bf0"))
    cs.append(conv_case("convolution.f32.2d_valid", [WINDOW, PSEUDO, OUTZ],
                        "f32", ints(2, 4, 4, 3), ints(2, 2, 3, 2), L2))
    cs.append(conv_case("convolution.f32.2d_stride", [STRIDE, PSEUDO], "f32",
                        ints(1, 5, 6, 2), ints(2, 2, 2, 3), L2,
                        strides=[2, 3]))
    cs.append(conv_case("convolution.f32.2d_pad", [PAD, PADLH, PSEUDO],
                        "f32", ints(1, 3, 3, 1), ints(3, 2, 1, 2), L2,
                        padding=[(1, 2), (2, 0)]))
    cs.append(conv_case("convolution.f32.2d_same", [
        S + " :: SAME padding pads the input (`lhs`) with zeroes so that the output has the same shape as the input when not taking striding into account."],
        "f32", ints(1, 4, 4, 1), ints(3, 3, 1, 1), L2,
        padding=[(1, 1), (1, 1)]))
    cs.append(conv_case("convolution.f32.negative_padding", [NEGPAD], "f32",
                        ints(1, 1, 7), ints(1, 1, 2), "bf0_oi0->bf0",
                        padding=[(-2, -1)]))
    cs.append(conv_case("convolution.f32.mixed_padding", [NEGPAD, PADLH],
                        "f32", ints(1, 1, 5), ints(1, 1, 2), "bf0_oi0->bf0",
                        padding=[(2, -3)]))
    cs.append(conv_case("convolution.f32.lhs_dilation", [DIL, HOLES, DILATED],
                        "f32", ints(1, 1, 4), ints(1, 1, 3), "bf0_oi0->bf0",
                        lhs_dil=[2], padding=[(2, 2)]))
    cs.append(conv_case("convolution.f32.rhs_dilation", [DIL, DILATED],
                        "f32", ints(1, 2, 7), ints(2, 2, 3), "bf0_oi0->bf0",
                        rhs_dil=[3]))
    cs.append(conv_case("convolution.f32.2d_all_window_options", [
        DIL, STRIDE, PAD, DILATED], "f32", ints(2, 2, 4, 5), ints(2, 2, 2, 3),
        "bf01_oi01->bf01", strides=[2, 1], padding=[(1, 0), (-1, 2)],
        lhs_dil=[2, 1], rhs_dil=[1, 2]))
    cs.append(conv_case("convolution.f32.window_reversal", [REVERSAL],
                        "f32", ints(1, 1, 5), np.array([[[1, 10, 100]]]),
                        "bf0_oi0->bf0", reversal=[1]))
    cs.append(conv_case("convolution.f32.3d", [LHS_DIMS], "f32",
                        ints(1, 3, 3, 4, 2), ints(2, 2, 3, 2, 2),
                        "b012f_012io->b012f", padding=[(0, 0), (1, 0), (0, 1)]))
    cs.append(conv_case("convolution.f32.0d", [LHS_DIMS], "f32",
                        ints(3, 4), ints(4, 2), "bf_io->bf",
                        note="no spatial dimensions: a matrix product"))
    # Dimension labels: the same data in several layouts.
    lhs = ints(2, 3, 4, 3)  # b f 0 1
    rhs = ints(2, 3, 2, 2)  # o i 0 1
    for labels in ["bf01_oi01->bf01", "b01f_01io->b01f", "f01b_i01o->01bf",
                   "0bf1_1oi0->f1b0", "bf10_oi10->bf10"]:
        ll, rl, _ = C.parse_labels(labels)
        lt = np.transpose(lhs, ["bf01".index(c) for c in ll])
        rt = np.transpose(rhs, ["oi01".index(c) for c in rl])
        cs.append(conv_case("convolution.f32.labels_" + labels.replace(
            "->", "_to_"), [GENDIMS, LHS_DIMS], "f32", lt, rt, labels))
    # Groups.
    cs.append(conv_case("convolution.f32.feature_groups", [
        FGC, FGC_SPLIT, FGC_RHS], "f32", ints(1, 4, 3), ints(6, 2, 2),
        "bf0_oi0->bf0", fgc=2))
    cs.append(conv_case("convolution.f32.depthwise", [DEPTHWISE], "f32",
                        ints(2, 3, 4), ints(6, 1, 2), "bf0_oi0->bf0", fgc=3))
    cs.append(conv_case("convolution.f32.batch_groups", [
        BGC, BGC_OUT, BGC_FEAT, BGC_FIG], "f32", ints(2, 2, 4),
        ints(4, 2, 2), "bf0_oi0->bf0", bgc=2))
    cs.append(conv_case("convolution.f32.batch_groups_of_two", [
        BGC, BGC_OUT, BGC_FIG], "f32", ints(4, 1, 3), ints(2, 1, 2),
        "bf0_oi0->bf0", bgc=2,
        note="input batch / batch_group_count = 2: output batch n of "
             "feature block i reads input batch i*2+n (the spec's figure)"))
    cs.append(conv_case("convolution.f32.empty_output", [OUT_DIMS, PLACEMENT],
                        "f32", ints(1, 1, 2), ints(1, 1, 3), "bf0_oi0->bf0",
                        note="the window is larger than the base area: no "
                             "valid placement"))
    return cs


CANDIDATES = [
    (np.array([[[1, -2, 3]]]), np.array([[[2, -1]]])),
    (np.array([[[1, 2, 3]]]), np.array([[[2, 1]]])),
    (np.array([[[1, 2, 1]]]), np.array([[[1, 1]]])),
    (np.array([[[1, 0, 1]]]), np.array([[[1, 1]]])),
    (np.array([[[0.5, 2, 1]]]), np.array([[[1, 0.5]]])),
    (np.array([[[-1, 0, -1]]]), np.array([[[0, 0]]])),
]


def type_sweep():
    cs = []
    lab = "bf0_oi0->bf0"
    for t in H.ALL:
        spec = [WINDOW, BOXES]
        if t == "pred":
            l = np.array([[[1, 0, 1, 0]]])
            r = np.array([[[0, 1]]])
            res = (C.conv(l, r, lab) > 0).astype(int)
            cs.append(conv_case("convolution.pred.values", spec, t, l, r,
                                lab, expect=res,
                                note="pred: products are AND, the sum OR"))
            continue
        if H.is_complex(t):
            l = np.array([[[1 + 1j, 2, -1j]]])
            r = np.array([[[0.5, 1 - 2j]]])
            cs.append(conv_case("convolution.%s.values" % t, spec, t, l, r,
                                lab))
            continue
        if t == "f8e8m0fnu":
            l = np.array([[[1, 2, 0.5]]])
            r = np.array([[[4]]])
            cs.append(conv_case("convolution.%s.values" % t, spec, t, l, r,
                                lab, note="window of one: e8m0 has no 0 and "
                                "only powers of two"))
            continue
        picked = U.pick_data(t, CANDIDATES,
                             lambda a, b: C.conv(a, b, lab).astype(float))
        assert picked is not None, t
        (l, r), _ = picked
        cs.append(conv_case("convolution.%s.values" % t, spec, t, l, r, lab))
    return cs


def preferred_and_edges():
    cs = []
    lab = "bf0_oi0->bf0"
    cs.append(conv_case("convolution.s8.preferred_s32", [PREF], "s8",
                        np.array([[[127, -128, 127]]]),
                        np.array([[[127, 127]]]), lab, out_t="s32"))
    cs.append(conv_case("convolution.bf16.preferred_f32", [PREF], "bf16",
                        np.array([[[256, 1, 1]]]), np.array([[[1, 1]]]), lab,
                        out_t="f32"))
    inf, nan = float("inf"), float("nan")
    for t in ("f32", "f64", "f16", "bf16"):
        l = np.array([[[inf, 0, 1, nan]]], dtype=float)
        r = np.array([[[1, 1]]], dtype=float)
        with np.errstate(invalid="ignore"):
            res = np.array([[[l[0, 0, i] * r[0, 0, 0] + l[0, 0, i + 1] *
                              r[0, 0, 1] for i in range(3)]]])
        cs.append(conv_case("convolution.%s.special" % t, [BOXES], t, l, r,
                            lab, expect=res))
        # inf * 0 in a padded position does not happen: padding is not a
        # product, but a 0 weight on inf is NaN.
        l = np.array([[[inf, 1]]], dtype=float)
        r = np.array([[[0, 1]]], dtype=float)
        cs.append(conv_case("convolution.%s.inf_times_zero" % t, [BOXES], t,
                            l, r, lab, expect=np.array([[[nan]]]),
                            note="inf * 0 is NaN (IEEE)"))
    return cs


def rejects():
    cs = []

    def mod(l, r, out, attrs):
        return U.entry([l, r], [], "%s convolution(p0, p1), %s" % (out, attrs))
    W = "window={size=2}, dim_labels=bf0_oi0->bf0"
    cs.append(U.reject_case("convolution.reject.input_feature_mismatch", [
        FGC_RHS], mod("f32[1,3,4]", "f32[2,2,2]", "f32[1,2,3]", W)))
    cs.append(U.reject_case("convolution.reject.feature_group_not_divisor", [
        FGC], mod("f32[1,4,4]", "f32[3,2,2]", "f32[1,3,3]",
                  W + ", feature_group_count=2")))
    cs.append(U.reject_case("convolution.reject.batch_group_not_divisor", [
        BGC], mod("f32[3,1,4]", "f32[2,1,2]", "f32[1,2,3]",
                  W + ", batch_group_count=2")))
    cs.append(U.reject_case("convolution.reject.batch_group_output_feature", [
        BGC_FEAT], mod("f32[2,1,4]", "f32[3,1,2]", "f32[1,3,3]",
                       W + ", batch_group_count=2")))
    cs.append(U.reject_case("convolution.reject.window_size_mismatch", [
        S + " :: `spatial_dims`: Describes the `n` spatial dimensions that define the n-d window that moves across the base area."],
        mod("f32[1,1,4]", "f32[1,1,2]", "f32[1,1,2]",
            "window={size=3}, dim_labels=bf0_oi0->bf0")))
    cs.append(U.reject_case("convolution.reject.zero_stride", [STRIDE],
                            mod("f32[1,1,4]", "f32[1,1,2]", "f32[1,1,3]",
                                "window={size=2 stride=0}, "
                                "dim_labels=bf0_oi0->bf0")))
    cs.append(U.reject_case("convolution.reject.zero_dilation", [DIL],
                            mod("f32[1,1,4]", "f32[1,1,2]", "f32[1,1,3]",
                                "window={size=2 lhs_dilate=0}, "
                                "dim_labels=bf0_oi0->bf0")))
    cs.append(U.reject_case("convolution.reject.labels_rank", [LHS_DIMS],
                            mod("f32[1,1,4,4]", "f32[1,1,2]", "f32[1,1,3]",
                                W)))
    cs.append(U.reject_case("convolution.reject.result_shape", [OUT_DIMS],
                            mod("f32[1,1,4]", "f32[1,1,2]", "f32[1,1,4]", W)))
    return cs


def xla_check():
    import jax
    jax.config.update("jax_enable_x64", True)
    from jax import lax
    bad = 0
    for name, lhs, rhs, labels, kw, res in XLA_CHECK:
        ll, rl, ol = C.parse_labels(labels)
        n = len(ll) - 2
        sp = "HWDXYZ"[:n]

        dn = (ll.replace("b", "N").replace("f", "C").translate(
            str.maketrans("012", sp.ljust(3)[:3])),
              rl.replace("o", "O").replace("i", "I").translate(
            str.maketrans("012", sp.ljust(3)[:3])),
              ol.replace("b", "N").replace("f", "C").translate(
            str.maketrans("012", sp.ljust(3)[:3])))
        r = rhs
        if kw.get("reversal"):
            for d, flag in enumerate(kw["reversal"]):
                if flag:
                    r = np.flip(r, rl.index(str(d)))
        out = lax.conv_general_dilated(
            np.asarray(lhs, np.float64), np.asarray(r, np.float64),
            window_strides=kw.get("strides") or [1] * n,
            padding=kw.get("padding") or [(0, 0)] * n,
            lhs_dilation=kw.get("lhs_dil"), rhs_dilation=kw.get("rhs_dil"),
            dimension_numbers=dn, feature_group_count=kw.get("fgc", 1),
            batch_group_count=kw.get("bgc", 1))
        out = np.asarray(out)
        want = np.asarray(res, dtype=np.float64)
        if out.shape != want.shape or not np.array_equal(out, want,
                                                         equal_nan=True):
            bad += 1
            print("XLA differs:", name, "\n  xla ", out.tolist(),
                  "\n  want", want.tolist())
    print("xla check: %d cases, %d differ" % (len(XLA_CHECK), bad))


HEADER = """Convolution (operation_semantics.md, Conv (Convolution) and its
ConvWith*/ConvGeneral* variants, which are one HLO op). Integer data: every
sum is exact, so the cases compare exactly."""


def main():
    cases = structure() + type_sweep() + preferred_and_edges() + rejects()
    H.write_file("convolution", "convolution", "convolution", cases, HEADER,
                 GEN)
    print("convolution", len(cases))
    if "--xla" in sys.argv:
        xla_check()


if __name__ == "__main__":
    main()
