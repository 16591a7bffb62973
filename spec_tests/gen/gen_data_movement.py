"""Generates spec_tests/data_movement/<op>.hlotest: broadcast, reshape,
transpose, reverse, slice, dynamic-slice, dynamic-update-slice,
concatenate, pad and iota (operation_semantics.md).

Expected values: the spec's worked examples, and numpy's array indexing
(broadcast_to, reshape, transpose, flip, basic slicing, concatenate)
applied to small arrays; pad with negative and interior padding is
written out by hand below (interior first, then edges, as the spec says).
Every op gets one case per element type (the data is moved, not
computed, so each type's values must come back bit for bit).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_data_movement.py
"""
import numpy as np

import hlotest as h

FAMILY = "data_movement"


def values(t, n, start=0):
    """n exactly representable values of t, mostly distinct."""
    if t == "pred":
        return [bool((i + start) % 3 == 0) for i in range(n)]
    if h.is_int(t):
        lo, hi = h.int_range(t)
        span = hi - lo + 1
        return [lo + (i + start - lo) % span for i in range(n)]
    if h.is_complex(t):
        return [complex(i + start, -(i + start) / 2) for i in range(n)]
    pool = [0.0, 1.0, -1.0, 2.0, 0.5, -0.5, 1.5, 3.0, -2.0, 4.0, 6.0, -3.0,
            -4.0, -1.5, -6.0, 0.25, 8.0, -8.0, 0.75, 12.0]
    if t == "f8e8m0fnu":
        pool = [2.0 ** k for k in range(-6, 10)]
    pool = [v for v in pool if h.representable(t, v)]
    return [pool[(i + start) % len(pool)] for i in range(n)]


def lit(t, arr):
    arr = np.asarray(arr, dtype=object)
    return h.literal(t, list(arr.reshape(-1)), list(arr.shape))


def shp(t, dims):
    return h.shape_text(t, dims)


def arr_of(t, dims, start=0):
    n = int(np.prod(dims)) if dims else 1
    return np.array(values(t, n, start), dtype=object).reshape(dims)


def run(name, spec, source, params, result, expr, args, expect, extra="",
        note=None):
    return h.Case(name, spec, source, h.module(params, result, expr, extra),
                  args=args, expect=expect, note=note)


def reject(name, spec, params, result, expr, rule, extra=""):
    return h.Case(name, spec, "hand", h.module(params, result, expr, extra),
                  reject=rule)


# --- broadcast --------------------------------------------------------------


def broadcast_cases():
    s_new = "Broadcast :: Adds dimensions to an array by duplicating the " \
            "data in the array."
    s_ex = "Broadcast :: For example, if `operand` is a scalar `f32` with " \
           "value `2.0f`, and"
    s_in = "BroadcastInDim :: Similar to Broadcast, but allows adding " \
           "dimensions anywhere and expanding"
    s_deg = "BroadcastInDim :: Degenerate-dimension broadcasting then " \
            "broadcasts along these degenerate"
    cases = [run("broadcast.f32.spec_example", s_ex, "spec-example",
                 ["f32[]"], "f32[2,3]", "broadcast(p0), dimensions={}",
                 ["f32[] 2"], lit("f32", np.full((2, 3), 2.0, object)))]
    for t in h.ALL:
        a = arr_of(t, [3])
        out = np.broadcast_to(a, (2, 3))
        cases.append(run("broadcast.%s.new_major_dim" % t, [
            s_new, "Broadcast :: The new dimensions are inserted on the left,"],
                         "numpy",
                         [shp(t, [3])], shp(t, [2, 3]),
                         "broadcast(p0), dimensions={1}", [lit(t, a)],
                         lit(t, out)))
    a = arr_of("s32", [2, 3])
    out = np.broadcast_to(a.reshape(2, 1, 3), (2, 4, 3))
    cases.append(run("broadcast.s32.middle_dim", [
        s_in, "BroadcastInDim :: The `operand` is broadcast to the shape "
        "described by `out_dim_size`."], "numpy",
                     ["s32[2,3]"], "s32[2,4,3]",
                     "broadcast(p0), dimensions={0,2}", [lit("s32", a)],
                     lit("s32", out)))
    a = arr_of("f32", [3])
    out = np.broadcast_to(a.reshape(3, 1), (3, 2))
    cases.append(run("broadcast.f32.minor_dim", s_in, "numpy", ["f32[3]"],
                     "f32[3,2]", "broadcast(p0), dimensions={0}",
                     [lit("f32", a)], lit("f32", out)))
    cases.append(h.Case(
        "broadcast.reject.dims_not_increasing", s_in, "hand",
        h.module(["s16[2,3]"], "s16[3,2,2]",
                 "broadcast(p0), dimensions={1,0}"),
        reject="verify operation_semantics.md, Broadcast",
        note="the spec does not say; XLA requires strictly increasing "
             "broadcast dimensions"))
    a = arr_of("u8", [1, 3])
    out = np.broadcast_to(a, (4, 3))
    cases.append(run("broadcast.u8.degenerate_dim", s_deg, "numpy",
                     ["u8[1,3]"], "u8[4,3]", "broadcast(p0), dimensions={0,1}",
                     [lit("u8", a)], lit("u8", out)))
    cases.append(run("broadcast.f16.zero_size", s_new, "numpy", ["f16[3]"],
                     "f16[0,3]", "broadcast(p0), dimensions={1}",
                     [lit("f16", arr_of("f16", [3]))], "f16[0,3] {  }"))
    cases.append(reject(
        "broadcast.reject.size_mismatch",
        "BroadcastInDim :: must have size 1 or be the same size as the "
        "dimension in the output", ["f32[3]"], "f32[2,4]",
        "broadcast(p0), dimensions={1}", "verify operation_semantics.md, Broadcast"))
    cases.append(reject(
        "broadcast.reject.dims_count",
        "BroadcastInDim :: maps the dimensions of `operand` to the "
        "dimensions of the", ["f32[2,3]"], "f32[2,3,4]",
        "broadcast(p0), dimensions={0}", "verify operation_semantics.md, Broadcast"))
    cases.append(reject(
        "broadcast.reject.element_type",
        "Broadcast :: Adds dimensions to an array by duplicating the data in "
        "the array.", ["f32[3]"], "s32[2,3]",
        "broadcast(p0), dimensions={1}", "verify shape.inferred"))
    return cases


# --- reshape ----------------------------------------------------------------


def reshape_cases():
    v = np.array([[[10, 11, 12], [15, 16, 17]], [[20, 21, 22], [25, 26, 27]],
                  [[30, 31, 32], [35, 36, 37]], [[40, 41, 42], [45, 46, 47]]],
                 dtype=object)
    s_ex = "Reshape :: For example, let v be an array of 24 elements:"
    s_flat = "Reshape :: Conceptually, reshape first flattens an array into " \
             "a one-dimensional vector of"
    s_scalar = "Reshape :: As a special case, reshape can transform a " \
               "single-element array to a scalar and"
    vf = [float(x) for x in v.reshape(-1)]
    cases = [
        run("reshape.f32.spec_example_24", s_ex, "spec-example",
            ["f32[4,2,3]"], "f32[24]", "reshape(p0)",
            [h.literal("f32", vf, [4, 2, 3])], h.literal("f32", vf, [24])),
        run("reshape.f32.spec_example_8x3", s_ex, "spec-example",
            ["f32[4,2,3]"], "f32[8,3]", "reshape(p0)",
            [h.literal("f32", vf, [4, 2, 3])], h.literal("f32", vf, [8, 3])),
        run("reshape.f32.spec_example_to_scalar", s_scalar, "spec-example",
            ["f32[1,1]"], "f32[]", "reshape(p0)", ["f32[1,1] {{5}}"],
            "f32[] 5"),
        run("reshape.f32.spec_example_from_scalar", s_scalar, "spec-example",
            ["f32[]"], "f32[1,1]", "reshape(p0)", ["f32[] 5"],
            "f32[1,1] {{5}}"),
    ]
    for t in h.ALL:
        a = arr_of(t, [2, 3])
        cases.append(run("reshape.%s.2x3_to_3x2" % t, s_flat, "numpy",
                         [shp(t, [2, 3])], shp(t, [3, 2]), "reshape(p0)",
                         [lit(t, a)], lit(t, a.reshape(3, 2))))
    a = arr_of("s32", [2, 3, 4])
    for dims in ([4, 6], [24], [2, 12], [1, 24, 1], [3, 2, 2, 2]):
        cases.append(run(
            "reshape.s32.2x3x4_to_%s" % "x".join(map(str, dims)), s_flat,
            "numpy", ["s32[2,3,4]"], shp("s32", dims), "reshape(p0)",
            [lit("s32", a)], lit("s32", a.reshape(dims))))
    cases.append(run("reshape.f32.zero_size", s_flat, "numpy", ["f32[0,3]"],
                     "f32[3,0]", "reshape(p0)", ["f32[0,3] {  }"],
                     "f32[3,0] { {}, {}, {} }"))
    cases.append(reject(
        "reshape.reject.element_count",
        "Reshape :: The product of the `dimensions` dimensions must",
        ["f32[2,3]"], "f32[5]", "reshape(p0)", "verify operation_semantics.md, Reshape"))
    cases.append(reject(
        "reshape.reject.element_type",
        "Reshape :: reshape first flattens an array", ["f32[2,3]"], "s32[6]",
        "reshape(p0)", "verify operation_semantics.md, Reshape"))
    return cases


# --- transpose -------------------------------------------------------------


def transpose_cases():
    spec = "Transpose :: Permutes the operand dimensions with the given " \
           "permutation, so"
    cases = []
    for t in h.ALL:
        a = arr_of(t, [2, 3])
        cases.append(run("transpose.%s.2d" % t, spec, "numpy",
                         [shp(t, [2, 3])], shp(t, [3, 2]),
                         "transpose(p0), dimensions={1,0}", [lit(t, a)],
                         lit(t, a.T)))
    a = arr_of("s32", [2, 3, 4])
    for perm in ([0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1], [0, 2, 1],
                 [1, 0, 2]):
        out = np.transpose(a, perm)
        cases.append(run("transpose.s32.perm_%s" % "".join(map(str, perm)),
                         spec, "numpy", ["s32[2,3,4]"],
                         shp("s32", list(out.shape)),
                         "transpose(p0), dimensions={%s}" % ",".join(
                             map(str, perm)), [lit("s32", a)],
                         lit("s32", out)))
    a = arr_of("f32", [2, 1, 3, 2])
    out = np.transpose(a, (3, 0, 2, 1))
    cases.append(run("transpose.f32.rank4", spec, "numpy", ["f32[2,1,3,2]"],
                     shp("f32", list(out.shape)),
                     "transpose(p0), dimensions={3,0,2,1}",
                     [lit("f32", a)], lit("f32", out)))
    for name, perm, result in (("not_permutation", "{0,0}", "f32[2,2]"),
                               ("wrong_rank", "{0}", "f32[2,3]"),
                               ("wrong_shape", "{1,0}", "f32[2,3]")):
        cases.append(reject("transpose.reject.%s" % name, spec, ["f32[2,3]"],
                            result, "transpose(p0), dimensions=%s" % perm,
                            "verify shape.inferred" if name == "wrong_shape"
                            else "verify operation_semantics.md, Transpose"))
    return cases


# --- reverse ----------------------------------------------------------------


def reverse_cases():
    spec = "Rev (reverse) :: Reverses the order of elements in the " \
           "`operand` array along the specified"
    cases = []
    for t in h.ALL:
        a = arr_of(t, [5])
        cases.append(run("reverse.%s.1d" % t, spec, "numpy", [shp(t, [5])],
                         shp(t, [5]), "reverse(p0), dimensions={0}",
                         [lit(t, a)], lit(t, a[::-1])))
    a = arr_of("s32", [2, 3, 4])
    for dims in ([0], [1], [2], [0, 2], [0, 1, 2], []):
        out = np.flip(a, dims) if dims else a
        cases.append(run("reverse.s32.dims_%s" % ("".join(map(str, dims)) or
                                                  "none"), spec, "numpy",
                         ["s32[2,3,4]"], "s32[2,3,4]",
                         "reverse(p0), dimensions={%s}" % ",".join(
                             map(str, dims)), [lit("s32", a)],
                         lit("s32", out)))
    cases.append(reject("reverse.reject.dim_out_of_range", spec, ["f32[2,3]"],
                        "f32[2,3]", "reverse(p0), dimensions={2}",
                        "verify operation_semantics.md, Rev (reverse)"))
    cases.append(reject("reverse.reject.repeated_dim", spec, ["f32[2,3]"],
                        "f32[2,3]", "reverse(p0), dimensions={1,1}",
                        "verify operation_semantics.md, Rev (reverse)"))
    return cases


# --- slice ------------------------------------------------------------------


def slice_text(starts, limits, strides=None):
    parts = []
    for i, (s, l) in enumerate(zip(starts, limits)):
        if strides and strides[i] != 1:
            parts.append("[%d:%d:%d]" % (s, l, strides[i]))
        else:
            parts.append("[%d:%d]" % (s, l))
    return "slice={%s}" % ", ".join(parts)


def slice_cases():
    spec = "Slice :: Slicing extracts a sub-array from the input array."
    s1 = "Slice :: Slicing extracts a sub-array from the input array."
    b = np.arange(12, dtype=float).reshape(4, 3)
    cases = [
        run("slice.f32.spec_example_1d", s1, "spec-example", ["f32[5]"],
            "f32[2]", "slice(p0), slice={[2:4]}",
            ["f32[5] {0, 1, 2, 3, 4}"], "f32[2] {2, 3}"),
        run("slice.f32.spec_example_2d", s1, "spec-example", ["f32[4,3]"],
            "f32[2,2]", "slice(p0), slice={[2:4], [1:3]}",
            [lit("f32", b)], lit("f32", b[2:4, 1:3])),
    ]
    for t in h.ALL:
        a = arr_of(t, [6])
        cases.append(run("slice.%s.strided" % t, spec, "numpy",
                         [shp(t, [6])], shp(t, [3]),
                         "slice(p0), slice={[1:6:2]}", [lit(t, a)],
                         lit(t, a[1:6:2])))
    a = arr_of("s32", [4, 5])
    for starts, limits, strides in (([0, 0], [4, 5], [1, 1]),
                                    ([1, 2], [3, 5], [1, 1]),
                                    ([0, 0], [4, 5], [3, 2]),
                                    ([3, 4], [4, 5], [1, 1]),
                                    ([2, 1], [2, 4], [1, 1]),
                                    ([0, 1], [4, 5], [2, 3])):
        out = a[starts[0]:limits[0]:strides[0], starts[1]:limits[1]:strides[1]]
        cases.append(run(
            "slice.s32.%s_%s_%s" % ("".join(map(str, starts)),
                                    "".join(map(str, limits)),
                                    "".join(map(str, strides))), spec,
            "numpy", ["s32[4,5]"], shp("s32", list(out.shape)),
            "slice(p0), %s" % slice_text(starts, limits, strides),
            [lit("s32", a)], lit("s32", out)))
    for name, sl, result in (("limit_past_end", "{[0:6]}", "f32[6]"),
                             ("start_after_limit", "{[3:2]}", "f32[0]"),
                             ("negative_start", "{[-1:2]}", "f32[3]"),
                             ("wrong_result", "{[0:2]}", "f32[3]")):
        cases.append(reject("slice.reject.%s" % name, spec, ["f32[5]"],
                            result, "slice(p0), slice=%s" % sl,
                            "verify shape.inferred" if name == "wrong_result"
                            else "verify operation_semantics.md, Slice"))
    return cases


# --- dynamic-slice / dynamic-update-slice ----------------------------------


def clamp_start(start, dim, size):
    return min(max(start, 0), dim - size)


DS_NOOP = ("DynamicSlice :: If the slice is in-bounds before the "
           "transformation is applied, the transformation has no effect.")
DUS_NOOP = ("DynamicUpdateSlice :: If the slice is in-bounds before the "
            "transformation is applied, the transformation has no effect.")


def dynamic_slice_cases():
    spec = "DynamicSlice :: DynamicSlice extracts a sub-array from the " \
           "input array at dynamic"
    s_clamp = "DynamicSlice :: This ensures that the extracted slice is " \
              "always in-bounds with respect to the"
    b = np.arange(12, dtype=float).reshape(4, 3)
    cases = [
        run("dynamic-slice.f32.spec_example_1d", spec, "spec-example",
            ["f32[5]", "s32[]"], "f32[2]",
            "dynamic-slice(p0, p1), dynamic_slice_sizes={2}",
            ["f32[5] {0, 1, 2, 3, 4}", "s32[] 2"], "f32[2] {2, 3}"),
        run("dynamic-slice.f32.spec_example_2d", spec, "spec-example",
            ["f32[4,3]", "s32[]", "s32[]"], "f32[2,2]",
            "dynamic-slice(p0, p1, p2), dynamic_slice_sizes={2,2}",
            [lit("f32", b), "s32[] 2", "s32[] 1"], lit("f32", b[2:4, 1:3])),
    ]
    a = arr_of("s32", [5])
    for it in ("s32", "s64", "u32", "s8", "u8", "s16", "u64", "u16"):
        lo, hi = h.int_range(it)
        for start in (0, 1, 3, 4, 7, -1, hi, lo):
            if not lo <= start <= hi:
                continue
            s = clamp_start(start, 5, 2)
            name = "dynamic-slice.s32.%s_start_%s" % (
                it, str(start).replace("-", "m"))
            if name in h._NAMES:
                continue
            cases.append(run(
                name, s_clamp if s != start else [spec, DS_NOOP], "hand",
                ["s32[5]", "%s[]" % it], "s32[2]",
                "dynamic-slice(p0, p1), dynamic_slice_sizes={2}",
                [lit("s32", a), h.literal(it, start)],
                lit("s32", a[s:s + 2]),
                note="start clamped to [0, 5 - 2]" if s != start else None))
    a = arr_of("f32", [4, 5])
    for starts in ((1, 2), (3, 4), (-2, 1), (10, -10), (0, 0), (2, 3)):
        s = [clamp_start(starts[0], 4, 2), clamp_start(starts[1], 5, 3)]
        cases.append(run(
            "dynamic-slice.f32.2d_start_%s_%s" % tuple(
                str(x).replace("-", "m") for x in starts),
            s_clamp, "hand", ["f32[4,5]", "s32[]", "s32[]"], "f32[2,3]",
            "dynamic-slice(p0, p1, p2), dynamic_slice_sizes={2,3}",
            [lit("f32", a), h.literal("s32", starts[0]),
             h.literal("s32", starts[1])],
            lit("f32", a[s[0]:s[0] + 2, s[1]:s[1] + 3])))
    for t in h.ALL:
        a = arr_of(t, [4])
        cases.append(run("dynamic-slice.%s.values" % t, spec, "numpy",
                         [shp(t, [4]), "s32[]"], shp(t, [2]),
                         "dynamic-slice(p0, p1), dynamic_slice_sizes={2}",
                         [lit(t, a), "s32[] 1"], lit(t, a[1:3])))
    cases.append(reject(
        "dynamic-slice.reject.size_too_big", spec, ["f32[5]", "s32[]"],
        "f32[6]", "dynamic-slice(p0, p1), dynamic_slice_sizes={6}",
        "verify operation_semantics.md, DynamicSlice"))
    cases.append(reject(
        "dynamic-slice.reject.index_count", spec,
        ["f32[4,3]", "s32[]"], "f32[2,2]",
        "dynamic-slice(p0, p1), dynamic_slice_sizes={2,2}",
        "verify operation_semantics.md, DynamicSlice"))
    cases.append(reject(
        "dynamic-slice.reject.float_index", spec, ["f32[5]", "f32[]"],
        "f32[2]", "dynamic-slice(p0, p1), dynamic_slice_sizes={2}",
        "verify operation_semantics.md, DynamicSlice"))
    return cases


def dynamic_update_slice_cases():
    spec = "DynamicUpdateSlice :: DynamicUpdateSlice generates a result " \
           "which is the value of the input array"
    s_clamp = "DynamicUpdateSlice :: This ensures that the updated slice is " \
              "always in-bounds with respect to the"
    b = np.arange(12, dtype=float).reshape(4, 3)
    u = np.arange(12, 18, dtype=float).reshape(3, 2)
    out = b.copy()
    out[1:4, 1:3] = u
    cases = [
        run("dynamic-update-slice.f32.spec_example_1d", spec, "spec-example",
            ["f32[5]", "f32[2]", "s32[]"], "f32[5]",
            "dynamic-update-slice(p0, p1, p2)",
            ["f32[5] {0, 1, 2, 3, 4}", "f32[2] {5, 6}", "s32[] 2"],
            "f32[5] {0, 1, 5, 6, 4}"),
        run("dynamic-update-slice.f32.spec_example_2d", spec, "spec-example",
            ["f32[4,3]", "f32[3,2]", "s32[]", "s32[]"], "f32[4,3]",
            "dynamic-update-slice(p0, p1, p2, p3)",
            [lit("f32", b), lit("f32", u), "s32[] 1", "s32[] 1"],
            lit("f32", out)),
    ]
    a = arr_of("s32", [5])
    upd = np.array([100, 200], dtype=object)
    for it in ("s32", "s64", "u32", "s8", "u8"):
        lo, hi = h.int_range(it)
        for start in (0, 2, 3, 4, 9, -1, hi, lo):
            if not lo <= start <= hi:
                continue
            s = clamp_start(start, 5, 2)
            o = a.copy()
            o[s:s + 2] = upd
            name = "dynamic-update-slice.s32.%s_start_%s" % (
                it, str(start).replace("-", "m"))
            if name in h._NAMES:
                continue
            cases.append(run(
                name, s_clamp if s != start else [spec, DUS_NOOP], "hand",
                ["s32[5]", "s32[2]", "%s[]" % it], "s32[5]",
                "dynamic-update-slice(p0, p1, p2)",
                [lit("s32", a), lit("s32", upd), h.literal(it, start)],
                lit("s32", o)))
    a = arr_of("f32", [4, 5])
    upd = arr_of("f32", [2, 3], 7)
    for starts in ((1, 2), (3, 4), (-2, 1), (10, -10), (0, 0)):
        s = [clamp_start(starts[0], 4, 2), clamp_start(starts[1], 5, 3)]
        o = a.copy()
        o[s[0]:s[0] + 2, s[1]:s[1] + 3] = upd
        cases.append(run(
            "dynamic-update-slice.f32.2d_start_%s_%s" % tuple(
                str(x).replace("-", "m") for x in starts),
            s_clamp, "hand", ["f32[4,5]", "f32[2,3]", "s32[]", "s32[]"],
            "f32[4,5]", "dynamic-update-slice(p0, p1, p2, p3)",
            [lit("f32", a), lit("f32", upd), h.literal("s32", starts[0]),
             h.literal("s32", starts[1])], lit("f32", o)))
    for t in h.ALL:
        a = arr_of(t, [4])
        upd = arr_of(t, [2], 5)
        o = a.copy()
        o[2:4] = upd
        cases.append(run("dynamic-update-slice.%s.values" % t, spec, "numpy",
                         [shp(t, [4]), shp(t, [2]), "s32[]"], shp(t, [4]),
                         "dynamic-update-slice(p0, p1, p2)",
                         [lit(t, a), lit(t, upd), "s32[] 2"], lit(t, o)))
    cases.append(reject(
        "dynamic-update-slice.reject.update_too_big", spec,
        ["f32[3]", "f32[4]", "s32[]"], "f32[3]",
        "dynamic-update-slice(p0, p1, p2)", "verify operation_semantics.md, DynamicUpdateSlice"))
    cases.append(reject(
        "dynamic-update-slice.reject.element_type", spec,
        ["f32[3]", "s32[2]", "s32[]"], "f32[3]",
        "dynamic-update-slice(p0, p1, p2)", "verify operation_semantics.md, DynamicUpdateSlice"))
    return cases


# --- concatenate -----------------------------------------------------------


def concatenate_cases():
    spec = "ConcatInDim (Concatenate) :: Concatenate composes an array from " \
           "multiple array operands."
    s_ex1 = "ConcatInDim (Concatenate) :: Concat({{2, 3}, {4, 5}, {6, 7}}, 0)"
    s_ex2 = "ConcatInDim (Concatenate) :: 2-dimensional example:"
    a = np.array([[1, 2], [3, 4], [5, 6]], dtype=object)
    b = np.array([[7, 8]], dtype=object)
    cases = [
        run("concatenate.f32.spec_example_1d", s_ex1, "spec-example",
            ["f32[2]"] * 3, "f32[6]", "concatenate(p0, p1, p2), dimensions={0}",
            ["f32[2] {2, 3}", "f32[2] {4, 5}", "f32[2] {6, 7}"],
            "f32[6] {2, 3, 4, 5, 6, 7}"),
        run("concatenate.s32.spec_example_2d", s_ex2, "spec-example",
            ["s32[3,2]", "s32[1,2]"], "s32[4,2]",
            "concatenate(p0, p1), dimensions={0}",
            [lit("s32", a), lit("s32", b)],
            lit("s32", np.concatenate([a, b], 0))),
    ]
    for t in h.ALL:
        x, y = arr_of(t, [2]), arr_of(t, [3], 2)
        cases.append(run("concatenate.%s.values" % t, spec, "numpy",
                         [shp(t, [2]), shp(t, [3])], shp(t, [5]),
                         "concatenate(p0, p1), dimensions={0}",
                         [lit(t, x), lit(t, y)],
                         lit(t, np.concatenate([x, y]))))
    x, y = arr_of("s32", [2, 3]), arr_of("s32", [2, 1], 9)
    cases.append(run("concatenate.s32.dim1", spec, "numpy",
                     ["s32[2,3]", "s32[2,1]"], "s32[2,4]",
                     "concatenate(p0, p1), dimensions={1}",
                     [lit("s32", x), lit("s32", y)],
                     lit("s32", np.concatenate([x, y], 1))))
    x = arr_of("f32", [2])
    cases.append(run("concatenate.f32.single_operand",
                     "ConcatInDim (Concatenate) :: Requires N >= 1.", "numpy",
                     ["f32[2]"], "f32[2]", "concatenate(p0), dimensions={0}",
                     [lit("f32", x)], lit("f32", x)))
    cases.append(run("concatenate.f32.empty_operand", spec, "numpy",
                     ["f32[2]", "f32[0]", "f32[1]"], "f32[3]",
                     "concatenate(p0, p1, p2), dimensions={0}",
                     ["f32[2] {1, 2}", "f32[0] {}", "f32[1] {3}"],
                     "f32[3] {1, 2, 3}"))
    for name, params, result, dim, s in (
            ("ragged", ["f32[2,3]", "f32[2,2]"], "f32[4,3]", 0,
             ["ConcatInDim (Concatenate) :: With the exception of "
              "`dimension` all dimensions must be the same.",
              "ConcatInDim (Concatenate) :: This is because XLA does not "
              "support \"ragged\" arrays."]),
            ("rank", ["f32[2,3]", "f32[3]"], "f32[2,6]", 1, spec),
            ("scalars", ["f32[]", "f32[]"], "f32[2]", 0,
             "ConcatInDim (Concatenate) :: values cannot be concatenated"),
            ("element_type", ["f32[2]", "s32[2]"], "f32[4]", 0, spec),
            ("dimension_out_of_range", ["f32[2]", "f32[2]"], "f32[4]", 1,
             spec)):
        args = ", ".join("p%d" % i for i in range(len(params)))
        cases.append(reject("concatenate.reject.%s" % name, s, params, result,
                            "concatenate(%s), dimensions={%d}" % (args, dim),
                            "verify operation_semantics.md, ConcatInDim (Concatenate)"))
    return cases


# --- pad --------------------------------------------------------------------


def pad_1d(vals, lo, hi, interior, fill):
    out = []
    for i, v in enumerate(vals):
        if i:
            out.extend([fill] * interior)
        out.append(v)
    if lo >= 0:
        out = [fill] * lo + out
    else:
        out = out[-lo:]
    if hi >= 0:
        out = out + [fill] * hi
    else:
        out = out[:len(out) + hi]
    return out


def pad_nd(arr, config, fill):
    """config: [(lo, hi, interior)] per dimension (interior, then edges)."""
    arr = np.asarray(arr, dtype=object)
    for d, (lo, hi, it) in enumerate(config):
        moved = np.moveaxis(arr, d, -1)
        rows = [pad_1d(list(r), lo, hi, it, fill)
                for r in moved.reshape(-1, moved.shape[-1])]
        n = len(pad_1d([fill] * moved.shape[-1], lo, hi, it, fill))
        moved = np.array(rows, dtype=object).reshape(moved.shape[:-1] + (n,))
        arr = np.moveaxis(moved, -1, d)
    return arr


def padding_text(config):
    return "x".join("%d_%d%s" % (lo, hi, "_%d" % it if it else "")
                    for lo, hi, it in config)


def pad_cases():
    spec = "Pad :: Expands the given `operand` array by padding around the " \
           "array as well as between"
    s_neg = "Pad :: The amount of edge padding can be negative -- the"
    s_int = "Pad :: specifies the amount of padding added between any two"
    s_order = "Pad :: Interior padding occurs logically before edge " \
              "padding, so in the case of negative"
    s_noop = "Pad :: This operation is a no-op if the edge padding pairs " \
             "are all (0, 0) and the"
    cases = []
    a = arr_of("f32", [2, 3], 1)
    for name, config, s in (
            ("edges", [(1, 2, 0), (0, 1, 0)], spec),
            ("interior", [(0, 0, 1), (0, 0, 2)], s_int),
            ("edges_and_interior", [(1, 1, 1), (2, 0, 1)], spec),
            ("negative_low", [(-1, 0, 0), (0, 0, 0)], s_neg),
            ("negative_high", [(0, 0, 0), (0, -2, 0)], s_neg),
            ("negative_into_interior", [(0, 0, 0), (-2, -1, 2)], s_order),
            ("negative_and_positive", [(-1, 2, 0), (1, -1, 0)], s_neg),
            ("noop", [(0, 0, 0), (0, 0, 0)], s_noop),
            ("remove_all", [(-2, 0, 0), (0, 0, 0)], s_neg)):
        out = pad_nd(a, config, -9.0)
        cases.append(run("pad.f32.%s" % name, s, "hand",
                         ["f32[2,3]", "f32[]"], shp("f32", list(out.shape)),
                         "pad(p0, p1), padding=%s" % padding_text(config),
                         [lit("f32", a), "f32[] -9"], lit("f32", out)))
    for t in h.ALL:
        a = arr_of(t, [3])
        fill = values(t, 1, 4)[0]
        config = [(1, -1, 1)]
        out = pad_nd(a, config, fill)
        cases.append(run("pad.%s.values" % t, spec, "hand",
                         [shp(t, [3]), shp(t, [])], shp(t, [len(out)]),
                         "pad(p0, p1), padding=1_-1_1", [lit(t, a),
                                                        h.literal(t, fill)],
                         lit(t, out)))
    for name, params, result, padding in (
            ("negative_interior", ["f32[3]", "f32[]"], "f32[3]", "0_0_-1"),
            ("nonscalar_value", ["f32[3]", "f32[1]"], "f32[5]", "1_1"),
            ("element_type", ["f32[3]", "s32[]"], "f32[5]", "1_1"),
            ("config_rank", ["f32[3]", "f32[]"], "f32[5]", "1_1x0_0"),
            ("too_negative", ["f32[3]", "f32[]"], "f32[0]", "-2_-2")):
        s = "Pad :: it may not be negative." if name == "negative_interior" \
            else spec
        cases.append(reject("pad.reject.%s" % name, s, params, result,
                            "pad(p0, p1), padding=%s" % padding, "verify operation_semantics.md, Pad"))
    return cases


# --- iota -------------------------------------------------------------------


def iota_cases():
    spec = "Iota :: Creates an array that has specified shape and holds " \
           "values starting at"
    s_f = "Iota :: types, the produced array is equivalent to"
    s_ex = "Iota :: For example, `Iota(s32[4, 8], 0)` returns"
    cases = []
    for dim in (0, 1):
        out = np.indices((4, 8))[dim]
        cases.append(h.Case(
            "iota.s32.spec_example_dim%d" % dim, s_ex, "spec-example",
            "HloModule m\nENTRY e {\n  ROOT r = s32[4,8] iota(), "
            "iota_dimension=%d\n}" % dim, expect=lit("s32", out)))
    for t in h.ALL:
        if t == "pred":
            continue
        n = 5
        if h.is_int(t):
            lo, hi = h.int_range(t)
            n = min(5, hi + 1)
            vals = [h.wrap(t, i) for i in range(n)]
        elif h.is_complex(t):
            vals = [complex(i, 0) for i in range(n)]
        else:
            if t == "f8e8m0fnu":
                continue  # 0 is not a value of f8e8m0fnu
            vals = [float(h.to_type(t, float(i))) for i in range(n)]
        cases.append(h.Case(
            "iota.%s.1d" % t, s_f if h.is_float(t) or h.is_complex(t)
            else spec, "hand",
            "HloModule m\nENTRY e {\n  ROOT r = %s iota(), "
            "iota_dimension=0\n}" % shp(t, [n]), expect=h.literal(t, vals)))
    out = np.indices((2, 3, 4))[2]
    cases.append(h.Case(
        "iota.u16.rank3_dim2", spec, "hand",
        "HloModule m\nENTRY e {\n  ROOT r = u16[2,3,4] iota(), "
        "iota_dimension=2\n}", expect=lit("u16", out)))
    out = np.indices((2, 3, 4))[1].astype(float)
    cases.append(h.Case(
        "iota.f32.rank3_dim1", s_f, "hand",
        "HloModule m\nENTRY e {\n  ROOT r = f32[2,3,4] iota(), "
        "iota_dimension=1\n}", expect=lit("f32", out)))
    cases.append(h.Case(
        "iota.f16.large_rounds", s_f, "hand",
        "HloModule m\nENTRY e {\n  ROOT r = f16[2051] iota(), "
        "iota_dimension=0\n}",
        expect=h.literal("f16", [float(np.float16(i)) for i in range(2051)]),
        note="2049 is not an f16 value: the integer iota converts with "
             "round-to-nearest-even (2049 -> 2048)"))
    cases.append(h.Case(
        "iota.reject.dimension_out_of_range", spec, "hand",
        "HloModule m\nENTRY e {\n  ROOT r = s32[4] iota(), "
        "iota_dimension=1\n}", reject="verify operation_semantics.md, Iota"))
    return cases


def copy_cases():
    spec = "Copy :: serve as primitives in"
    cases = []
    for t in h.ALL:
        a = arr_of(t, [2, 3])
        cases.append(run("copy.%s.values" % t, spec, "numpy",
                         [shp(t, [2, 3])], shp(t, [2, 3]), "copy(p0)",
                         [lit(t, a)], lit(t, a)))
    cases.append(run("copy.f32.special", spec, "hand", ["f32[4]"], "f32[4]",
                     "copy(p0)", ["f32[4] {nan, -inf, -0, 1e-45}"],
                     "f32[4] {nan, -inf, -0, 1e-45}"))
    cases.append(reject("copy.reject.element_type", spec, ["f32[2]"],
                        "s32[2]", "copy(p0)", "verify shape.inferred"))
    return cases


def main():
    total = 0
    cases = copy_cases()
    h.write_file("elementwise", "copy", "copy", cases,
                 "copy (operation_semantics.md, Copy): the values come back "
                 "unchanged.", "gen_data_movement.py")
    total += len(cases)
    print("%-22s %4d" % ("copy", len(cases)))
    for op, fn in (("broadcast", broadcast_cases), ("reshape", reshape_cases),
                   ("transpose", transpose_cases), ("reverse", reverse_cases),
                   ("slice", slice_cases),
                   ("dynamic-slice", dynamic_slice_cases),
                   ("dynamic-update-slice", dynamic_update_slice_cases),
                   ("concatenate", concatenate_cases), ("pad", pad_cases),
                   ("iota", iota_cases)):
        cases = fn()
        h.write_file(FAMILY, op, op, cases,
                     "%s (operation_semantics.md)." % op,
                     "gen_data_movement.py")
        total += len(cases)
        print("%-22s %4d" % (op, len(cases)))
    print("total", total)


if __name__ == "__main__":
    main()
