"""Generates spec_tests/indexing/gather.hlotest and scatter.hlotest
(operation_semantics.md, Gather and Scatter): the spec's example shapes,
every element type, index types, index_vector_dim placements, batching
dimensions, out-of-bounds starts, repeated indices, update computations,
variadic scatter, and rejected dimension numbers.

Expected values: structured_util.gather / structured_util.scatter, plain
Python transcriptions of the spec's formal index mapping (gather clamps
its start index as dynamic-slice does; scatter skips each update element
whose operand index is out of bounds, per the spec's summary).
Run: /tmp/xlavenv/bin/python spec_tests/gen/gen_indexing.py
"""
import numpy as np

import hlotest as h
import structured_util as u

FAMILY = "indexing"
GEN = "gen_indexing.py"

G_DEF = ("Gather :: The XLA gather operation stitches together several "
         "slices (each slice at a")
G_FORMAL = ("General Semantics :: Formally, the operand index `In` "
            "corresponding to a given output index `Out` is")
G_EX = ("Informal Description and Examples :: example that gathers 5 slices "
        "of shape `[8,6]` from a `[16,11]` array")
G_EX2 = ("Informal Description and Examples :: a more general version of "
         "the example above using a \"gather indices\" array of shape")
G_ND = ("Informal Description and Examples :: As a final example, we use "
        "(2) and (3) to implement `tf.gather_nd`:")
G_IVD = ("General Semantics :: If `index_vector_dim` is equal to "
         "`start_indices.rank` we implicitly consider")
G_SLICE = ("Informal Description and Examples :: We dynamic-slice out a "
           "slice with size `slice_sizes` using the full starting")
G_COLL = ("Informal Description and Examples :: These \"missing\" "
          "dimensions, which are listed explicitly as "
          "`collapsed_slice_dims`, must have")
G_SORTED = ("General Semantics :: If `indices_are_sorted` is set to true "
            "then XLA can assume that `start_indices`")


def dims(xs):
    return "{%s}" % ",".join(map(str, xs))


def gather_case(name, spec, t, operand, idx, it, offset_dims, collapsed,
                start_map, ivd, slice_sizes, op_batch=(), idx_batch=(),
                sorted_=False, source="hand", note=None):
    out = u.gather(operand, idx, offset_dims, collapsed, start_map, ivd,
                   slice_sizes, op_batch, idx_batch)
    attrs = "offset_dims=%s, collapsed_slice_dims=%s, start_index_map=%s, " \
            "index_vector_dim=%d" % (dims(offset_dims), dims(collapsed),
                                     dims(start_map), ivd)
    if op_batch:
        attrs += ", operand_batching_dims=%s, start_indices_batching_dims" \
                 "=%s" % (dims(op_batch), dims(idx_batch))
    attrs += ", slice_sizes=%s" % dims(slice_sizes)
    if sorted_:
        attrs += ", indices_are_sorted=true"
    mod = u.module([], [u.shp(t, list(operand.shape)),
                        u.shp(it, list(idx.shape))],
                   u.shp(t, list(out.shape)), "gather(p0, p1), " + attrs)
    return h.Case(name, spec, source, mod,
                  args=[u.lit(t, operand), u.lit(it, idx)],
                  expect=u.lit(t, out), note=note)


def seq(dims_, start=0):
    n = int(np.prod(dims_))
    return np.arange(start, start + n, dtype=object).reshape(dims_)


def gather_cases():
    cases = []
    big = seq([16, 11])
    idx = np.array([[0, 0], [3, 5], [8, 2], [10, 4], [15, 9]], dtype=object)
    cases.append(gather_case(
        "gather.s32.spec_example_5_slices", [G_EX, G_FORMAL], "s32", big, idx,
        "s64", [1, 2], [], [0, 1], 1, [8, 6],
        note="the spec's shapes; its figure has no values. The starts "
        "(10, 4) and (15, 9) do not fit and are clamped to (8, 4) and "
        "(8, 5)"))
    idx4 = np.array([[[i % 9, (2 * i + j) % 6] for j in range(5)]
                     for i in range(4)], dtype=object)
    cases.append(gather_case(
        "gather.s32.spec_example_4x5_indices", G_EX2, "s32", big, idx4,
        "s64", [2, 3], [], [0, 1], 2, [8, 6]))
    nd = np.array([[[1], [15], [3]], [[0], [7], [7]]], dtype=object)
    cases.append(gather_case(
        "gather.s32.spec_example_gather_nd", [G_ND, G_COLL], "s32", big, nd,
        "s64", [2], [0], [0], 2, [1, 11]))
    # Every element type: pick rows of a [3,2] operand.
    for t in h.ALL:
        op = u.arr(t, [3, 2])
        cases.append(gather_case(
            "gather.%s.rows" % t, [G_DEF, G_FORMAL], t, op,
            np.array([2, 0, 2], dtype=object), "s32", [1], [0], [0], 1,
            [1, 2]))
    # Index element types.
    for it in ["s8", "s16", "s64", "u8", "u16", "u32", "u64"]:
        cases.append(gather_case(
            "gather.f32.indices_%s" % it, G_FORMAL, "f32", seq([4, 3]),
            np.array([[3], [1]], dtype=object), it, [1], [0], [0], 1,
            [1, 3]))
    m = seq([3, 4])
    cases.append(gather_case(
        "gather.s32.implicit_index_vector_dim", G_IVD, "s32", m,
        np.array([2, 0, 1, 1], dtype=object), "s32", [1], [0], [0], 1,
        [1, 4], note="index_vector_dim = rank 1 of start_indices"))
    cases.append(gather_case(
        "gather.s32.index_vector_dim_0", G_FORMAL, "s32", m,
        np.array([[0, 2, 1], [1, 0, 3]], dtype=object), "s32", [], [0, 1],
        [0, 1], 0, [1, 1]))
    cases.append(gather_case(
        "gather.s32.start_index_map_swapped",
        "General Semantics :: `S`<sub>`in`</sub>[`start_index_map`[`k`]] = "
        "`S`[`k`] if `k` <", "s32", m,
        np.array([[1, 2], [3, 0]], dtype=object), "s32", [1, 2], [], [1, 0],
        1, [2, 1]))
    cases.append(gather_case(
        "gather.s32.offset_dims_first", G_FORMAL, "s32", seq([2, 3, 4]),
        np.array([[1], [0]], dtype=object), "s32", [0, 1], [2], [2], 1,
        [2, 2, 1], note="offset dimensions before the batch dimension"))
    cases.append(gather_case(
        "gather.s32.partial_start_index", "General Semantics :: "
        "`S`<sub>`in`</sub>[`_`] = `0` otherwise.", "s32", seq([3, 4]),
        np.array([[2], [1]], dtype=object), "s32", [1, 2], [], [1], 1,
        [2, 2], note="dimension 0 is not in start_index_map: start 0"))
    # Out-of-bounds starts are clamped (dynamic-slice semantics).
    cases.append(gather_case(
        "gather.s32.clamp_high_and_negative", G_SLICE, "s32", seq([5]),
        np.array([[-3], [4], [100], [2]], dtype=object), "s32", [1], [],
        [0], 1, [2], note="starts -3, 4, 100 clamp to 0, 3, 3 (the slice "
        "stays in bounds, as in DynamicSlice)"))
    cases.append(gather_case(
        "gather.s64.clamp_index_extremes", G_SLICE, "s32", seq([4, 3]),
        np.array([[-2 ** 63, 2 ** 63 - 1], [2 ** 63 - 1, -2 ** 63]],
                 dtype=object), "s64", [1, 2], [], [0, 1], 1, [2, 2]))
    cases.append(gather_case(
        "gather.u32.clamp_unsigned_huge", G_SLICE, "f32", seq([4, 2]),
        np.array([[4294967295], [1]], dtype=object), "u32", [1], [0], [0], 1,
        [1, 2]))
    # Batching dimensions.
    cases.append(gather_case(
        "gather.s32.batching_dims", G_FORMAL, "s32", seq([2, 3, 4]),
        np.array([[[2], [0]], [[1], [2]]], dtype=object), "s32", [2], [1],
        [1], 2, [1, 1, 2], op_batch=[0], idx_batch=[0],
        note="operand_batching_dims={0} pairs operand dimension 0 with "
        "start_indices dimension 0"))
    cases.append(gather_case(
        "gather.s32.indices_are_sorted", G_SORTED, "s32", seq([6]),
        np.array([[0], [2], [2], [5]], dtype=object), "s32", [], [0], [0], 1,
        [1]))
    cases.append(gather_case(
        "gather.f32.empty_indices", G_FORMAL, "f32", seq([3, 2]),
        np.zeros((0, 1), dtype=object), "s32", [1], [0], [0], 1, [1, 2]))
    cases.append(gather_case(
        "gather.s32.no_batch_dims", "General Semantics :: Note that this "
        "is well defined even if `G` is empty: If `G` is", "s32",
        seq([3, 4]), np.array([1, 2], dtype=object), "s32", [0, 1], [],
        [0, 1], 0, [2, 2], note="start_indices is one index vector: the "
        "result is one dynamic slice"))
    cases.append(h.Case(
        "gather.s32.unsorted_but_flagged_sorted",
        "General Semantics :: If they are not then the semantics are "
        "implementation defined.", "hand",
        u.module([], ["s32[6]", "s32[3,1]"], "s32[3]",
                 "gather(p0, p1), offset_dims={}, collapsed_slice_dims={0}, "
                 "start_index_map={0}, index_vector_dim=1, slice_sizes={1}, "
                 "indices_are_sorted=true"),
        args=["s32[6] {0, 10, 20, 30, 40, 50}", "s32[3,1] {{4}, {0}, {2}}"],
        impl="indices_are_sorted=true with unsorted indices"))
    u.add_spec(cases, {
        "gather.s32.spec_example_5_slices": [
            "Informal Description and Examples :: We first select an "
            "(`X`,`Y`) vector from the gather indices array using `G`.",
            "Informal Description and Examples :: This gather operation "
            "acts as a batch dynamic slice with `G` as the",
            "Informal Description and Examples :: The position of a slice "
            "into the `[16,11]` array can be represented",
            "Informal Description and Examples :: `slice_sizes` is `[8,6]`, "
            "which decides the range of"],
        "gather.s32.spec_example_4x5": [
            "Informal Description and Examples :: The gather indices may be "
            "multidimensional.", "Informal Description and Examples :: "
            "Again, this acts as a batch dynamic slice"],
        "gather.s32.spec_example_gather_nd": [
            "Informal Description and Examples :: `slice_sizes` for this "
            "case is `[1,11]`.", "Informal Description and Examples :: "
            "Intuitively this means that every index `X` in the gather "
            "indices", "Informal Description and Examples :: Since they "
            "have a slice size of `1` the only valid index for them is"],
        "gather.f32.rows": [
            "General Semantics :: Let `G` = { `Out`[`k`] for `k` in "
            "`batch_dims` }.", "General Semantics :: `In` is "
            "`O`<sub>`in`</sub> + `S`<sub>`in`</sub> where + is element-wise",
            "General Semantics :: The output is an array with "
            "`batch_dims.size` + `offset_dims.size` dimensions.",
            "Informal Description and Examples :: We use the batch "
            "dimensions in `Out` to look up a starting index"],
        "gather.s32.offset_dims_first": [
            "General Semantics :: For convenience, we label dimensions in "
            "the output array not in `offset_dims`", "Informal Description "
            "and Examples :: We can configure which dimensions in the "
            "output shape are the offset", "General Semantics :: "
            "`remapped_offset_dims` is a monotonic function with domain"],
        "gather.s32.partial_start_index": [
            "Informal Description and Examples :: We use `start_index_map` "
            "to map the starting index (whose size may be less",
            "Informal Description and Examples :: may have fewer elements "
            "than the input array's number of dimensions"],
        "gather.s32.rows": [
            "Informal Description and Examples :: We reshape the slice by "
            "collapsing the `collapsed_slice_dims` dimensions."],
    })
    # Rejected dimension numbers.
    def rej(name, spec, rule, op_s, idx_s, out_s, attrs):
        cases.append(h.Case(
            name, spec, "hand",
            u.module([], [op_s, idx_s], out_s, "gather(p0, p1), " + attrs),
            reject="verify " + rule))
    sec = "operation_semantics.md, Gather"
    rej("gather.reject.slice_sizes_size",
        "General Semantics :: Also, `slice_sizes.size` has to be equal to",
        sec, "f32[3,4]", "s32[2,1]", "f32[2,4]",
        "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={1}")
    rej("gather.reject.rank_sum",
        "General Semantics :: The `operand.rank` must equal the sum of "
        "`offset_dims.size` and", sec, "f32[3,4]", "s32[2,1]", "f32[2,1,4]",
        "offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={1,4}")
    rej("gather.reject.collapsed_not_one", G_COLL, sec, "f32[3,4]",
        "s32[2,1]", "f32[2,4]",
        "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={2,4}")
    rej("gather.reject.slice_too_big",
        "General Semantics :: `slice_sizes[i]` is the", sec, "f32[3,4]",
        "s32[2,1]", "f32[2,5]",
        "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={1,5}")
    rej("gather.reject.float_indices", G_FORMAL, sec, "f32[3,4]", "f32[2,1]",
        "f32[2,4]",
        "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
        "index_vector_dim=1, slice_sizes={1,4}")
    return cases


# --- scatter -----------------------------------------------------------------

S_DEF = ("Scatter :: The XLA scatter operation generates a sequence of "
         "results which are the values")
S_SUM = ("Scatter :: For every index `U` in the `updates`[`J`] array and "
         "the corresponding index")
S_VALID = "Scatter :: if `O` is a valid index for `output`:"
S_ORDER = ("Scatter :: Note that the first parameter that is passed into the "
           "`update_computation` will")
S_REPEAT = ("Scatter :: So, when multiple indices in `updates` refer to the "
            "same index in `operands`")
S_EX1 = ("Scatter - Example 1 - StableHLO :: Input) `input` has shape "
         "S32[2,3,4,2]. `scatter_indices` have shape")
S_SKIP = ("Scatter - Example 1 - StableHLO :: The last row is skipped "
          "because it falls outside of")
S_IVD = ("Scatter :: If `index_vector_dim` is equal to "
         "`scatter_indices.rank` we implicitly consider")
S_VAR = "Scatter :: If `N > 1`, `Collate(T_0, ..., T_N)` is a tuple of"


def comp_for(t, op):
    if op == "replace":
        return """f {
  a = %s[] parameter(0)
  b = %s[] parameter(1)
  ROOT c = %s[] copy(b)
}""" % (t, t, t)
    return u.scalar_comp("f", t, op)


def fn_for(t, op):
    if op == "replace":
        return lambda a, b: (b,)
    f = u.binop(op, t)
    return lambda a, b: (f(a, b),)


def scatter_case(name, spec, t, operand, idx, it, updates, op, uwd, iwd,
                 sd2od, ivd, in_batch=(), idx_batch=(), flags="",
                 note=None, source="hand"):
    out, = u.scatter([operand], idx, [updates], fn_for(t, op), uwd, iwd,
                     sd2od, ivd, in_batch, idx_batch)
    attrs = ("update_window_dims=%s, inserted_window_dims=%s, "
             "scatter_dims_to_operand_dims=%s, index_vector_dim=%d"
             % (dims(uwd), dims(iwd), dims(sd2od), ivd))
    if in_batch:
        attrs += ", input_batching_dims=%s, scatter_indices_batching_dims" \
                 "=%s" % (dims(in_batch), dims(idx_batch))
    if flags:
        attrs += ", " + flags
    mod = u.module([comp_for(t, op)],
                   [u.shp(t, list(operand.shape)),
                    u.shp(it, list(idx.shape)),
                    u.shp(t, list(updates.shape))],
                   u.shp(t, list(operand.shape)),
                   "scatter(p0, p1, p2), %s, to_apply=f" % attrs)
    return h.Case(name, spec, source, mod,
                  args=[u.lit(t, operand), u.lit(it, idx),
                        u.lit(t, updates)],
                  expect=u.lit(t, out), note=note)


def scatter_cases():
    cases = []
    # The spec's example 1: shapes and dimension numbers from the text.
    operand = seq([2, 3, 4, 2], 1)
    idx = np.array([[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
                    [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
                   dtype=object)
    upd = np.ones((2, 2, 3, 1, 2), dtype=object)
    cases.append(scatter_case(
        "scatter.s32.spec_example_1", [S_EX1, S_SKIP], "s32", operand, idx,
        "s64", upd, "add", [3, 4], [1], [2, 1], 3, [0], [1],
        note="the spec's shapes, update_window_dims, "
        "scatter_dims_to_operand_dims and index_vector_dim; batching "
        "dims input {0} / indices {1}; start (0, 9) is out of bounds"))
    # Every element type: add (or / multiply where add is not closed).
    for t in h.ALL:
        op = "add"
        if t == "pred":
            op = "or"
        elif t == "f8e8m0fnu":
            op = "multiply"
        o = u.arr(t, [5])
        up = u.arr(t, [2], 2)
        cases.append(scatter_case(
            "scatter.%s.%s" % (t, op), [S_DEF, S_SUM], t, o,
            np.array([[3], [0]], dtype=object), "s32", up, op, [], [0], [0],
            1))
        cases.append(scatter_case(
            "scatter.%s.replace" % t, [S_DEF, S_SUM], t, o,
            np.array([[4], [1]], dtype=object), "s32", u.arr(t, [2], 3),
            "replace", [], [0], [0], 1))
    for it in ["s8", "s16", "s64", "u8", "u16", "u32", "u64"]:
        cases.append(scatter_case(
            "scatter.f32.indices_%s" % it, S_SUM, "f32", seq([4]),
            np.array([[3], [1]], dtype=object), it,
            np.array([10, 20], dtype=object), "add", [], [0], [0], 1))
    # Update windows: rows into a matrix, with inserted dimensions.
    m = seq([3, 4])
    cases.append(scatter_case(
        "scatter.s32.rows", S_SUM, "s32", m,
        np.array([[2], [0]], dtype=object), "s32",
        np.array([[100, 200, 300, 400], [1, 2, 3, 4]], dtype=object), "add",
        [1], [0], [0], 1))
    cases.append(scatter_case(
        "scatter.s32.window_2x2", S_SUM, "s32", m,
        np.array([[1, 2], [0, 0]], dtype=object), "s32",
        np.array([[[1, 2], [3, 4]], [[10, 20], [30, 40]]], dtype=object),
        "add", [1, 2], [], [0, 1], 1))
    cases.append(scatter_case(
        "scatter.s32.sd2od_swapped",
        "Scatter :: This array is interpreted as mapping `i` to "
        "`scatter_dims_to_operand_dims[i]`", "s32", m,
        np.array([[3, 1], [0, 2]], dtype=object), "s32",
        np.array([5, 7], dtype=object), "add", [], [0, 1], [1, 0], 1))
    cases.append(scatter_case(
        "scatter.s32.implicit_index_vector_dim", S_IVD, "s32", seq([5]),
        np.array([4, 1], dtype=object), "s32",
        np.array([50, 60], dtype=object), "add", [], [0], [0], 1))
    cases.append(scatter_case(
        "scatter.s32.index_vector_dim_0", S_SUM, "s32", m,
        np.array([[0, 2], [3, 1]], dtype=object), "s32",
        np.array([9, 8], dtype=object), "replace", [], [0, 1], [0, 1], 0))
    # Update computation order and repeated indices.
    cases.append(scatter_case(
        "scatter.s32.subtract_current_minus_update", S_ORDER, "s32",
        seq([4]), np.array([[1], [3]], dtype=object), "s32",
        np.array([10, 20], dtype=object), "subtract", [], [0], [0], 1,
        note="output = current - update, not update - current"))
    cases.append(scatter_case(
        "scatter.s32.repeated_indices_add", S_REPEAT, "s32", seq([4]),
        np.array([[1], [1], [3], [1]], dtype=object), "s32",
        np.array([10, 20, 30, 40], dtype=object), "add", [], [0], [0], 1,
        note="integer addition: every order gives the same value"))
    cases.append(scatter_case(
        "scatter.f32.repeated_indices_max", S_REPEAT, "f32", seq([3]),
        np.array([[0], [0], [2], [0]], dtype=object), "s32",
        np.array([-4, 7.5, 1, 3], dtype=object), "maximum", [], [0], [0], 1))
    cases.append(h.Case(
        "scatter.s32.repeated_indices_replace", S_REPEAT, "hand",
        u.module([comp_for("s32", "replace")], ["s32[3]", "s32[2,1]",
                                                "s32[2]"], "s32[3]",
                 "scatter(p0, p1, p2), update_window_dims={}, "
                 "inserted_window_dims={0}, scatter_dims_to_operand_dims={0},"
                 " index_vector_dim=1, to_apply=f"),
        args=["s32[3] {0, 1, 2}", "s32[2,1] {{1}, {1}}", "s32[2] {5, 6}"],
        impl="the spec: the value at a repeated index is non-deterministic "
        "(here 5 or 6)"))
    # Out of bounds.
    cases.append(scatter_case(
        "scatter.s32.out_of_bounds_skipped", [S_VALID, S_SKIP], "s32",
        seq([5]), np.array([[-1], [5], [2], [1000]], dtype=object), "s32",
        np.array([10, 20, 30, 40], dtype=object), "add", [], [0], [0], 1,
        note="indices -1, 5 and 1000 are not valid: those updates are "
        "dropped (no clamping, unlike gather)"))
    cases.append(scatter_case(
        "scatter.s32.window_partly_out_of_bounds", [S_VALID, S_SUM], "s32",
        seq([6]), np.array([[4], [0]], dtype=object), "s32",
        np.array([[1, 2, 3], [10, 20, 30]], dtype=object), "add", [1], [],
        [0], 1, note="the spec checks each element: the window at 4 "
        "covers 4, 5, 6 and only 6 is dropped. XLA drops the whole window "
        "(operand unchanged there); the spec wins, see gen/README.md"))
    cases.append(scatter_case(
        "scatter.s64.index_extremes_dropped", S_VALID, "s32", seq([4]),
        np.array([[-2 ** 63], [2 ** 63 - 1], [3]], dtype=object), "s64",
        np.array([10, 20, 30], dtype=object), "add", [], [0], [0], 1))
    cases.append(scatter_case(
        "scatter.u8.index_past_end_dropped", S_VALID, "f32", seq([4]),
        np.array([[255], [0]], dtype=object), "u8",
        np.array([10, 20], dtype=object), "add", [], [0], [0], 1))
    cases.append(scatter_case(
        "scatter.s32.window_fully_out_of_bounds", [S_VALID, S_SKIP], "s32",
        seq([6]), np.array([[6], [-3], [1]], dtype=object), "s32",
        np.array([[1, 2, 3], [4, 5, 6], [10, 20, 30]], dtype=object), "add",
        [1], [], [0], 1))
    # Batching dims, flags, variadic, empty.
    cases.append(scatter_case(
        "scatter.s32.batching_dims", S_SUM, "s32", seq([2, 3]),
        np.array([[[2], [0]], [[1], [1]]], dtype=object), "s32",
        np.array([[10, 20], [30, 40]], dtype=object), "add", [], [1], [1], 2,
        [0], [0], note="input_batching_dims={0} pairs operand dimension 0 "
        "with indices dimension 0"))
    cases.append(scatter_case(
        "scatter.s32.unique_sorted_flags",
        ["Scatter :: If `unique_indices` is set to true then XLA can assume "
         "that all elements", "Scatter :: If `indices_are_sorted` is set to "
         "true then XLA can assume that"], "s32", seq([5]),
        np.array([[0], [2], [4]], dtype=object), "s32",
        np.array([7, 8, 9], dtype=object), "replace", [], [0], [0], 1,
        flags="indices_are_sorted=true, unique_indices=true"))
    cases.append(scatter_case(
        "scatter.f32.empty_updates", S_SUM, "f32", seq([3]),
        np.zeros((0, 1), dtype=object), "s32", np.zeros((0,), dtype=object),
        "add", [], [0], [0], 1))
    var = """f {
  a0 = s32[] parameter(0)
  a1 = f32[] parameter(1)
  b0 = s32[] parameter(2)
  b1 = f32[] parameter(3)
  s = s32[] add(a0, b0)
  m = f32[] multiply(a1, b1)
  ROOT t = (s32[], f32[]) tuple(s, m)
}"""
    o0, o1 = seq([4]), np.array([1, 2, 3, 4], dtype=object)
    ix = np.array([[2], [0], [2]], dtype=object)
    u0, u1 = (np.array([10, 20, 30], dtype=object),
              np.array([0.5, -1, 4], dtype=object))
    r0, r1 = u.scatter([o0, o1], ix, [u0, u1],
                       lambda a0, a1, b0, b1: (a0 + b0, a1 * b1), [], [0],
                       [0], 1)
    cases.append(h.Case(
        "scatter.s32_f32.variadic", [S_VAR, S_SUM], "hand",
        u.module([var], ["s32[4]", "f32[4]", "s32[3,1]", "s32[3]", "f32[3]"],
                 "(s32[4], f32[4])",
                 "scatter(p0, p1, p2, p3, p4), update_window_dims={}, "
                 "inserted_window_dims={0}, scatter_dims_to_operand_dims={0},"
                 " index_vector_dim=1, to_apply=f"),
        args=[u.lit("s32", o0), u.lit("f32", o1), u.lit("s32", ix),
              u.lit("s32", u0), u.lit("f32", u1)],
        expect=u.tuple_lit([u.lit("s32", r0), u.lit("f32", r1)]),
        note="index 2 is updated twice; add and multiply give the same "
        "value in either order"))
    cases.append(h.Case(
        "scatter.s32.unique_flag_violated",
        "Scatter :: If `unique_indices` is set to true and the indices "
        "being scattered to are not", "hand",
        u.module([comp_for("s32", "add")], ["s32[3]", "s32[2,1]", "s32[2]"],
                 "s32[3]", "scatter(p0, p1, p2), update_window_dims={}, "
                 "inserted_window_dims={0}, scatter_dims_to_operand_dims={0},"
                 " index_vector_dim=1, unique_indices=true, to_apply=f"),
        args=["s32[3] {0, 1, 2}", "s32[2,1] {{1}, {1}}", "s32[2] {5, 6}"],
        impl="unique_indices=true with a repeated index"))
    cases.append(h.Case(
        "scatter.s32.unsorted_but_flagged_sorted",
        "Scatter :: If they are not then the semantics are implementation "
        "defined.", "hand",
        u.module([comp_for("s32", "add")], ["s32[3]", "s32[2,1]", "s32[2]"],
                 "s32[3]", "scatter(p0, p1, p2), update_window_dims={}, "
                 "inserted_window_dims={0}, scatter_dims_to_operand_dims={0},"
                 " index_vector_dim=1, indices_are_sorted=true, to_apply=f"),
        args=["s32[3] {0, 1, 2}", "s32[2,1] {{2}, {0}}", "s32[2] {5, 6}"],
        impl="indices_are_sorted=true with unsorted indices"))
    u.add_spec(cases, {
        "scatter.s32.spec_example_1": [
            "Scatter - Example 1 - StableHLO :: `updates` have shape "
            "S32[2,2,3,1,2].", "Scatter - Example 1 - StableHLO :: This "
            "allows us to derive that `update_scatter_dims` = [0,1,2].",
            "Scatter - Example 1 - StableHLO :: Full Start Index) "
            "`scatter_dims_to_operand_dims` = [2,1] tells us",
            "Scatter - Example 1 - StableHLO :: The remaining operand "
            "dimensions are filled with 0.", "Scatter - Example 1 - "
            "StableHLO :: Result Index) The addition of Full Start Index, "
            "Full Batching Index"],
        "scatter.f32.add": [
            "Scatter :: If `N = 1`, `Collate(T)` is `T`.",
            "Scatter :: Initialize `output` with `operands`, i.e. for all "
            "indices `J`", "Scatter :: `I` is `W`<sub>`in`</sub> + "
            "`S`<sub>`in`</sub> where + is element-wise addition."],
        "scatter.s32.rows": [
            "Scatter :: Let `G` = { `U`[`k`] for `k` in "
            "`update_scatter_dims` }.", "Scatter :: We define "
            "`update_scatter_dims` of type `ArraySlice<int64>` as the set"],
        "scatter.s32.window_2x2": [
            "Scatter :: Create an index `W`<sub>`in`</sub> into each "
            "`operands` array by scattering", "Scatter :: `update_window_"
            "dims` | `ArraySlice<int64>` | The set of dimensions in"],
        "scatter.s32.sd2od_swapped": [
            "Scatter :: It has to be one-to-one and total."],
        "scatter.s32.subtract": [
            "Scatter :: This is important specifically for cases when the "
            "`update_computation` is _not commutative_."],
        "scatter.s32.repeated_indices_replace": [
            "Scatter :: The order in which updates are applied is "
            "non-deterministic."],
    })
    # Rejected.
    add = u.scalar_comp("f", "s32", "add")
    sec = "operation_semantics.md, Scatter"

    def rej(name, spec, shapes, attrs, rule=sec):
        cases.append(h.Case(
            name, spec, "hand",
            u.module([add], shapes, shapes[0],
                     "scatter(p0, p1, p2), %s, to_apply=f" % attrs),
            reject="verify " + rule))
    rej("scatter.reject.updates_rank",
        "Scatter :: Each `updates` array must have `update_window_dims.size "
        "+", ["s32[3,4]", "s32[2,1]", "s32[2,4,1]"],
        "update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1")
    rej("scatter.reject.window_bound",
        "Scatter :: in `updates` must not exceed the corresponding bound of "
        "`operand` after", ["s32[3,4]", "s32[2,1]", "s32[2,5]"],
        "update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1")
    rej("scatter.reject.scatter_dim_bound",
        "Scatter :: `i` in `updates` must be equal to the corresponding "
        "bound of", ["s32[3,4]", "s32[2,1]", "s32[3,4]"],
        "update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1")
    rej("scatter.reject.inserted_not_sorted",
        "Scatter :: `inserted_window_dims` must be in ascending order, not "
        "have any repeating", ["s32[3,4]", "s32[2,2]", "s32[2]"],
        "update_window_dims={}, inserted_window_dims={1,0}, "
        "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1")
    rej("scatter.reject.sd2od_size",
        "Scatter :: `scatter_dims_to_operand_dims.size` must be equal to",
        ["s32[3,4]", "s32[2,1]", "s32[2,4]"],
        "update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1")
    rej("scatter.reject.rank_sum",
        "Scatter :: `operand.rank` must equal the sum of "
        "`update_window_dims.size` and", ["s32[3,4]", "s32[2,1]", "s32[2,4]"],
        "update_window_dims={1}, inserted_window_dims={}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1")
    return cases


def main():
    for stem, fn in [("gather", gather_cases), ("scatter", scatter_cases)]:
        cases = fn()
        path = h.write_file(FAMILY, stem, stem, cases,
                            "%s (operation_semantics.md)." % stem, GEN)
        print("%s: %d cases" % (path, len(cases)))


if __name__ == "__main__":
    main()
