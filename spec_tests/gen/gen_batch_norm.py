"""Writes spec_tests/linalg/batch-norm-{training,inference,grad}.hlotest
(run by gen_linalg_factor.py). Expected values: the spec's formulas in exact
rational arithmetic (fractions) on data whose variance + epsilon is a perfect
square, so the cases compare exactly; plus random f32/f64 cases computed
with numpy in float64 (default tolerance)."""
from fractions import Fraction as F
import math

import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_linalg_factor.py"

BT = "BatchNormTraining"
BI = "BatchNormInference"
BG = "BatchNormGrad"
T_FEAT = BT + " :: For each feature in the feature dimension (`feature_index` is the index for the feature dimension in `operand`), the operation calculates the mean and variance across all the other dimensions and uses the mean and variance to normalize each element in `operand`."
T_MEAN = BT + " :: Calculates batch mean $\\mu_l$ for each feature `l` in feature dimension:"
T_VAR = BT + " :: Calculates batch variance $\\sigma^2_l$:"
T_NORM = BT + " :: Normalizes, scales and shifts:"
T_OUT = BT + " :: The output type is a tuple of three `XlaOp`s:"
T_EPS = BT + " :: The epsilon value, usually a small number, is added to avoid divide-by-zero errors."
T_IDX = BT + " :: The `feature_index` must be a valid index for the feature dimension in `operand`."
I_USE = BI + " :: It uses the input `mean` and `variance` instead as estimated values."
I_EQ = BI + " :: `BatchNormInference` is equivalent to calling `BatchNormTraining` without computing `mean` and `variance` for each batch."
I_OUT = BI + " :: The output is an n-dimensional, normalized array with the same shape as input `operand`."
I_IDX = BI + " :: The `feature_index` must be a valid index for the feature dimension in `operand`."
G_FEAT = BG + " :: the operation calculates the gradients with respect to `operand`, `offset`, and `scale` across all the other dimensions."
G_FORM = BG + " :: The three gradients are defined by the following formulas"
G_OUT = BG + " :: The output type is a tuple of three handles:"
G_IDX = BG + " :: The `feature_index` must be a valid index for the feature dimension in `operand`."


def fsqrt(q):
    n, d = q.numerator, q.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return F(rn, rd)
    return None


def move(x, fi):
    """x with the feature dim last, flattened to [m, features]."""
    x = np.moveaxis(np.asarray(x, dtype=object), fi, -1)
    return x.reshape(-1, x.shape[-1])


def unmove(flat, shape, fi):
    s = list(shape)
    s.append(s.pop(fi))
    return np.moveaxis(flat.reshape(s), -1, fi)


def training(x, gamma, beta, eps, fi):
    xf = move(np.vectorize(F, otypes=[object])(x), fi)
    m = xf.shape[0]
    mean = [sum(xf[:, l]) / m for l in range(xf.shape[1])]
    var = [sum((xf[:, l] - mean[l]) ** 2) / m for l in range(xf.shape[1])]
    y = np.empty_like(xf)
    for l in range(xf.shape[1]):
        den = fsqrt(var[l] + F(eps))
        if den is None:
            return None
        y[:, l] = [F(gamma[l]) * (v - mean[l]) / den + F(beta[l])
                   for v in xf[:, l]]
    return unmove(y, np.shape(x), fi), np.array(mean), np.array(var)


def inference(x, scale, offset, mean, var, eps, fi):
    xf = move(np.vectorize(F, otypes=[object])(x), fi)
    y = np.empty_like(xf)
    for l in range(xf.shape[1]):
        den = fsqrt(F(var[l]) + F(eps))
        if den is None:
            return None
        y[:, l] = [F(scale[l]) * (v - F(mean[l])) / den + F(offset[l])
                   for v in xf[:, l]]
    return unmove(y, np.shape(x), fi)


def grad(x, scale, mean, var, dy, eps, fi):
    xf = move(np.vectorize(F, otypes=[object])(x), fi)
    df = move(np.vectorize(F, otypes=[object])(dy), fi)
    m = xf.shape[0]
    dx = np.empty_like(xf)
    dscale, doff = [], []
    for l in range(xf.shape[1]):
        ve = F(var[l]) + F(eps)
        rs = fsqrt(ve)
        if rs is None:
            return None
        mu = F(mean[l])
        c = sum(df[i, l] * (xf[i, l] - mu) / ve for i in range(m)) / m
        d = sum(df[:, l]) / m
        dx[:, l] = [F(scale[l]) / rs * (df[i, l] - d - c * (xf[i, l] - mu))
                    for i in range(m)]
        dscale.append(sum(df[i, l] * (xf[i, l] - mu) / rs for i in range(m)))
        doff.append(sum(df[:, l]))
    return unmove(dx, np.shape(x), fi), np.array(dscale), np.array(doff)


def eps_text(eps):
    return repr(float(eps)).rstrip("0").rstrip(".") if float(eps) != int(
        eps) else str(int(eps))


def flo(a):
    return np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))


def tr_case(name, spec, t, x, gamma, beta, eps, fi, source="hand"):
    x = np.asarray(x)
    if source == "hand":
        y, mean, var = [flo(v) for v in training(x, gamma, beta, eps, fi)]
    else:
        xd = np.moveaxis(x.astype(np.float64), fi, -1)
        ax = tuple(range(xd.ndim - 1))
        mean = xd.mean(axis=ax)
        var = ((xd - mean) ** 2).mean(axis=ax)
        y = np.moveaxis(np.asarray(gamma) * (xd - mean) / np.sqrt(var + eps)
                        + np.asarray(beta), -1, fi)
    n = x.shape[fi]
    s1 = U.shape(t, [n])
    out = "(%s, %s, %s)" % (U.shape(t, x.shape), s1, s1)
    mod = U.entry([U.shape(t, x.shape), s1, s1], [], (
        "%s batch-norm-training(p0, p1, p2), epsilon=%s, feature_index=%d"
        % (out, eps_text(eps), fi)))
    for a in (x, gamma, beta, y, mean, var):
        if source == "hand":
            assert U.all_representable(t, a), (name, a)
    return H.Case(name, spec, source, mod,
                  args=[U.lit(t, x), U.lit(t, gamma), U.lit(t, beta)],
                  expect=U.tuple_lit([U.lit(t, y), U.lit(t, mean),
                                      U.lit(t, var)]),
                  tolerance="exact" if source == "hand" else None)


def inf_case(name, spec, t, x, scale, offset, mean, var, eps, fi,
             source="hand"):
    x = np.asarray(x)
    if source == "hand":
        y = flo(inference(x, scale, offset, mean, var, eps, fi))
    else:
        xd = np.moveaxis(x.astype(np.float64), fi, -1)
        y = np.moveaxis(np.asarray(scale) * (xd - mean) /
                        np.sqrt(np.asarray(var) + eps) + offset, -1, fi)
    n = x.shape[fi]
    s1 = U.shape(t, [n])
    mod = U.entry([U.shape(t, x.shape)] + [s1] * 4, [], (
        "%s batch-norm-inference(p0, p1, p2, p3, p4), epsilon=%s, "
        "feature_index=%d" % (U.shape(t, x.shape), eps_text(eps), fi)))
    if source == "hand":
        for a in (x, scale, offset, mean, var, y):
            assert U.all_representable(t, a), (name, a)
    return H.Case(name, spec, source, mod,
                  args=[U.lit(t, a) for a in (x, scale, offset, mean, var)],
                  expect=U.lit(t, y),
                  tolerance="exact" if source == "hand" else None)


def grad_case(name, spec, t, x, scale, mean, var, dy, eps, fi,
              source="hand"):
    x, dy = np.asarray(x), np.asarray(dy)
    if source == "hand":
        dx, ds, do = [flo(v) for v in grad(x, scale, mean, var, dy, eps, fi)]
    else:
        xd = np.moveaxis(x.astype(np.float64), fi, -1)
        gd = np.moveaxis(dy.astype(np.float64), fi, -1)
        ax = tuple(range(xd.ndim - 1))
        ve = np.asarray(var, np.float64) + eps
        c = (gd * (xd - mean) / ve).mean(axis=ax)
        d = gd.mean(axis=ax)
        dx = np.moveaxis(np.asarray(scale) / np.sqrt(ve) *
                         (gd - d - c * (xd - mean)), -1, fi)
        ds = (gd * (xd - mean) / np.sqrt(ve)).sum(axis=ax)
        do = gd.sum(axis=ax)
    n = x.shape[fi]
    s1 = U.shape(t, [n])
    sx = U.shape(t, x.shape)
    mod = U.entry([sx, s1, s1, s1, sx], [], (
        "(%s, %s, %s) batch-norm-grad(p0, p1, p2, p3, p4), epsilon=%s, "
        "feature_index=%d" % (sx, s1, s1, eps_text(eps), fi)))
    if source == "hand":
        for a in (x, scale, mean, var, dy, dx, ds, do):
            assert U.all_representable(t, a), (name, a)
    return H.Case(name, spec, source, mod,
                  args=[U.lit(t, a) for a in (x, scale, mean, var, dy)],
                  expect=U.tuple_lit([U.lit(t, dx), U.lit(t, ds),
                                      U.lit(t, do)]),
                  tolerance="exact" if source == "hand" else None)


def types():
    return [t for t in H.FLOATS if t != "f8e8m0fnu"]


def training_cases():
    cs = []
    # Feature values mu +- 1.5 (variance 2.25); epsilon 1.75: sqrt(4) = 2.
    x = np.array([[0.5, -2.5], [3.5, 0.5], [0.5, -2.5], [3.5, 0.5]])
    for t in ("f32", "f64", "f16", "bf16"):
        cs.append(tr_case("batch-norm-training.%s.formula" % t, [
            T_FEAT, T_MEAN, T_VAR, T_NORM, T_OUT, T_EPS,
            BT + " :: Normalizes an array across batch and spatial dimensions.",
            BT + " :: The `batch_mean` and `batch_var` are moments calculated across the batch and spatial dimensions using the formulas above."], t, x, [2, -4],
            [1, 0.5], 1.75, 1))
    # Feature dimension first, in the middle, and of a 4-D operand (the
    # spec's m, w, h, l).
    x3 = np.array([[[0.5, 3.5], [3.5, 0.5]], [[-2.5, 0.5], [0.5, -2.5]]])
    cs.append(tr_case("batch-norm-training.f32.feature_index_0", [T_FEAT],
                      "f32", x3, [1, 1], [0, 0], 1.75, 0))
    x4 = np.transpose(x3, (1, 0, 2))
    cs.append(tr_case("batch-norm-training.f32.feature_index_1_of_3", [
        T_FEAT], "f32", x4, [1, 2], [0, -1], 1.75, 1))
    r = np.random.RandomState(4)
    xr = np.array([1, -1, 1, -1])[:, None, None, None] * 1.5 + np.zeros(
        (4, 1, 2, 3))
    xr = xr + np.arange(3)  # per feature l: mean l, variance 2.25
    cs.append(tr_case("batch-norm-training.f32.4d", [T_FEAT, T_MEAN, T_VAR],
                      "f32", xr, [1, 2, -1], [0, 1, 2], 1.75, 3))
    # Random data, numpy in float64.
    for t in ("f32", "f64"):
        xr = r.uniform(-2, 2, size=(3, 4, 2)).astype(np.float32).astype(
            np.float64)
        cs.append(tr_case("batch-norm-training.%s.random" % t, [T_NORM], t,
                          xr, [0.5, 2.0], [0.25, -1], 0.001, 2,
                          source="numpy"))
    # Narrow types: x in {0, 2} per feature, variance 1, epsilon 3.
    xn = np.array([[0, 2], [2, 0], [0, 2], [2, 0]])
    for t in types():
        if t in ("f32", "f64", "f16", "bf16"):
            continue
        cs.append(tr_case("batch-norm-training.%s.values" % t, [T_NORM], t,
                          xn, [2, 1], [1, 0.5], 3, 1))
    cs.append(U.reject_case("batch-norm-training.reject.feature_index", [
        T_IDX], U.entry(["f32[2,2]", "f32[2]", "f32[2]"], [], (
            "(f32[2,2], f32[2], f32[2]) batch-norm-training(p0, p1, p2), "
            "epsilon=0.001, feature_index=2"))))
    cs.append(U.reject_case("batch-norm-training.reject.scale_size", [
        BT + " :: 1 dimensional array ($\\gamma$)"],
        U.entry(["f32[2,3]", "f32[2]", "f32[3]"], [], (
            "(f32[2,3], f32[3], f32[3]) batch-norm-training(p0, p1, p2), "
            "epsilon=0.001, feature_index=1"))))
    cs.append(U.reject_case("batch-norm-training.reject.integer", [
        BT + " :: n dimensional array to be normalized (x)"],
        U.entry(["s32[2,2]", "s32[2]", "s32[2]"], [], (
            "(s32[2,2], s32[2], s32[2]) batch-norm-training(p0, p1, p2), "
            "epsilon=0.001, feature_index=1"))))
    return cs


def inference_cases():
    cs = []
    x = np.array([[1, -3], [5, 0], [-1, 1]])
    # variance + epsilon: 3 + 1 = 4 and 0.75 + 0.25 = 1.
    for t in ("f32", "f64", "f16", "bf16"):
        cs.append(inf_case("batch-norm-inference.%s.formula" % t, [
            I_USE, I_EQ, I_OUT, BI + " :: Normalizes an array across batch and spatial dimensions."], t, x, [2, -1], [0.5, 1], [1, -1], [3, 0],
            1, 1))
    cs.append(inf_case("batch-norm-inference.f32.feature_index_0", [I_USE],
                       "f32", x.T, [2, -1], [0.5, 1], [1, -1], [0, 3], 1, 0))
    r = np.random.RandomState(6)
    for t in ("f32", "f64"):
        xr = r.uniform(-2, 2, size=(2, 3, 2)).astype(np.float32).astype(
            np.float64)
        cs.append(inf_case("batch-norm-inference.%s.random" % t, [I_USE], t,
                           xr, [0.5, 2, 1], [0.25, -1, 0], [0.5, -0.25, 0],
                           [1.5, 0.25, 2], 0.001, 1, source="numpy"))
    xn = np.array([[0, 2], [2, 0]])
    for t in types():
        if t in ("f32", "f64", "f16", "bf16"):
            continue
        cs.append(inf_case("batch-norm-inference.%s.values" % t, [I_USE], t,
                           xn, [2, 1], [1, 0.5], [1, 1], [1, 1], 3, 1))
    # f8e8m0fnu (no zero): x equal to the mean gives the offset.
    cs.append(H.Case(
        "batch-norm-inference.f8e8m0fnu.values", [I_USE], "hand", U.entry(
            ["f8e8m0fnu[1,2]"] + ["f8e8m0fnu[2]"] * 4, [], (
                "f8e8m0fnu[1,2] batch-norm-inference(p0, p1, p2, p3, p4), "
                "epsilon=2, feature_index=1")),
        args=["f8e8m0fnu[1,2] {{4, 0.5}}", "f8e8m0fnu[2] {2, 2}",
              "f8e8m0fnu[2] {1, 8}", "f8e8m0fnu[2] {4, 0.5}",
              "f8e8m0fnu[2] {2, 2}"],
        expect="f8e8m0fnu[1,2] {{1, 8}}", tolerance="exact",
        note="x equals the mean, so y is the offset (e8m0 has no 0)"))
    cs.append(U.reject_case("batch-norm-inference.reject.feature_index", [
        I_IDX], U.entry(["f32[2,2]"] + ["f32[2]"] * 4, [], (
            "f32[2,2] batch-norm-inference(p0, p1, p2, p3, p4), "
            "epsilon=0.001, feature_index=-1"))))
    cs.append(U.reject_case("batch-norm-inference.reject.mean_size", [
        BI + " :: 1 dimensional array"], U.entry(
            ["f32[2,2]", "f32[2]", "f32[2]", "f32[3]", "f32[2]"], [], (
                "f32[2,2] batch-norm-inference(p0, p1, p2, p3, p4), "
                "epsilon=0.001, feature_index=1"))))
    cs.append(U.reject_case("batch-norm-inference.reject.result_shape", [
        I_OUT], U.entry(["f32[2,2]"] + ["f32[2]"] * 4, [], (
            "f32[2] batch-norm-inference(p0, p1, p2, p3, p4), "
            "epsilon=0.001, feature_index=1"))))
    return cs


def grad_cases():
    cs = []
    x = np.array([[0.5, -2.5], [3.5, 0.5], [0.5, -2.5], [3.5, 0.5]])
    dy = np.array([[1, 2], [-1, 0], [2, -2], [2, 4]])
    # var + eps = 2.25 + 1.75 = 4.
    for t in ("f32", "f64", "f16", "bf16"):
        cs.append(grad_case("batch-norm-grad.%s.formula" % t, [
            G_FEAT, G_FORM, G_OUT, BG + " :: Calculates gradients of batch norm.",
            BG + " :: The inputs `batch_mean` and `batch_var` represent moments values across batch and spatial dimensions."], t, x, [2, -1], [2, -1], [2.25, 2.25],
            dy, 1.75, 1))
    x3 = np.array([[[0.5, 3.5], [3.5, 0.5]], [[-2.5, 0.5], [0.5, -2.5]]])
    dy3 = np.array([[[1, 0], [0, 1]], [[2, -2], [-2, 2]]])
    cs.append(grad_case("batch-norm-grad.f32.feature_index_0", [G_FEAT],
                        "f32", x3, [1, 2], [2, -1], [2.25, 2.25], dy3, 1.75,
                        0))
    r = np.random.RandomState(8)
    for t in ("f32", "f64"):
        xr = r.uniform(-2, 2, size=(3, 2, 2)).astype(np.float32).astype(
            np.float64)
        dr = r.uniform(-1, 1, size=(3, 2, 2)).astype(np.float32).astype(
            np.float64)
        cs.append(grad_case("batch-norm-grad.%s.random" % t, [G_FORM], t, xr,
                            [0.5, 2], [0.25, -0.5], [1.25, 0.5], dr, 0.001, 1,
                            source="numpy"))
    xn = np.array([[0, 2], [2, 0], [0, 2], [2, 0]])
    dn = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    for t in types():
        if t in ("f32", "f64", "f16", "bf16"):
            continue
        cs.append(grad_case("batch-norm-grad.%s.values" % t, [G_FORM], t, xn,
                            [2, 2], [1, 1], [1, 1], dn, 3, 1))
    cs.append(U.reject_case("batch-norm-grad.reject.feature_index", [G_IDX],
                            U.entry(["f32[2,2]"] + ["f32[2]"] * 3 +
                                    ["f32[2,2]"], [], (
        "(f32[2,2], f32[2], f32[2]) batch-norm-grad(p0, p1, p2, p3, p4), "
        "epsilon=0.001, feature_index=3"))))
    cs.append(U.reject_case("batch-norm-grad.reject.grad_output_shape", [
        BG + " :: Gradients passed to `BatchNormTraining` ($\\nabla y$)"],
        U.entry(["f32[2,2]"] + ["f32[2]"] * 3 + ["f32[2,3]"], [], (
            "(f32[2,2], f32[2], f32[2]) batch-norm-grad(p0, p1, p2, p3, p4), "
            "epsilon=0.001, feature_index=1"))))
    return cs


HEADER = """%s (operation_semantics.md, %s). Exact cases: per-feature data
whose variance + epsilon is a perfect square, computed with the spec's
formulas in rational arithmetic; `random` cases: numpy in float64 with the
default tolerance."""


def main():
    for stem, sec, cases in (
            ("batch-norm-training", BT, training_cases()),
            ("batch-norm-inference", BI, inference_cases()),
            ("batch-norm-grad", BG, grad_cases())):
        H.write_file("linalg", stem, stem, cases, HEADER % (sec, sec), GEN)
        print(stem, len(cases))


if __name__ == "__main__":
    main()
