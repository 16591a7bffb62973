"""Writes spec_tests/collectives/<op>.hlotest: all-reduce, all-gather,
all-to-all, ragged-all-to-all, reduce-scatter, collective-permute,
collective-broadcast, replica-id and partition-id, run on `replicas:` x
`partitions:` simulated devices with per-device `arg[d]:` / `expect[d]:`.
Expected values: the spec's examples, else computed here in exact Python
arithmetic from the spec's description of each op."""
import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_collectives.py"

AR = "AllReduce :: Performs a custom computation across replicas."
AR_EX = "AllReduce :: For example, if there are two replicas and the operand has the value `[1.0, 2.5]` and `[3.0, 5.25]` respectively on the two replicas, then the output value from this op and summation computation will be `[4.0, 7.75]` on both replicas."
AR_TUPLE = "AllReduce :: When `operand` is a tuple of arrays, the all-reduce is performed on each element of the tuple."
AR_GROUPS = "AllReduce :: For example, `replica_groups = {0, 2}, {1, 3}` performs reduction between the replicas `0` and `2`, and `1` and `3`."
AR_EMPTY = "AllReduce :: `replica_groups` must either be empty (in which case all replicas belong to a single group), or contain the same number of elements as the number of replicas."
AR_SHAPE = "AllReduce :: The output shape is the same as the input shape."
AR_GLOBAL = "AllReduce :: `use_global_device_ids` Returns true if the ids in the ReplicaGroup config represent a global id of (replica_id * partition_count + partition_id) instead of a replica id."
AR_TUPLE_OUT = "AllReduce :: If the input is a tuple, the output is a tuple as well."
CRS = "CrossReplicaSum :: Returns the sum of the operand value within each subgroup of replicas."
AG = "AllGather :: Performs concatenation across replicas."
AG_EX = "AllGather :: For example, if there are two replicas and the operand has the value `[1.0, 2.5]` and `[3.0, 5.25]` respectively on the two replicas, then the output value from this op where `all_gather_dim` is `0` will be `[1.0, 2.5, 3.0,5.25]` on both replicas."
AG_ORDER = "AllGather :: The order of replicas in each group determines the order in which their inputs are located in the result."
AG_GROUPS = "AllGather :: For example, `replica_groups = {0, 2}, {1, 3}` performs concatenation between the replicas `0` and `2`, and `1` and `3`."
AG_SHAPE = "AllGather :: The output shape is the input shape with the `all_gather_dimension` made `shard_count` times larger."
A2A = "AllToAll :: AllToAll is a collective operation that sends data from all cores to all cores."
A2A_SCATTER = "AllToAll :: On each core, the operand is split into `split_count` number of blocks along the `split_dimensions`, and the blocks are scattered to all cores, e.g., the ith block is sent to the ith core."
A2A_GATHER = "AllToAll :: Each core concatenates the received blocks along the `concat_dimension`."
A2A_GROUPS = "AllToAll :: AllToAll will be applied within subgroups in the specified order."
A2A_DIV = "AllToAll :: The dimension size of the operand on the `split_dimension` is divisible by `split_count`."
A2A_EX1 = "AllToAll - Example 1. :: In the above example, there are 4 cores participating in the Alltoall."
A2A_EX2 = "AllToAll - Example 2 - StableHLO :: In the above example, there are 2 replicas participating in the AllToAll."
RS = "ReduceScatter :: ReduceScatter is a collective operation that effectively does an AllReduce and then scatters the result by splitting it into `shard_count` blocks along the `scatter_dimension` and replica `i` in the replica group receives the `ith` shard."
RS_EX = "ReduceScatter :: For example, if there are two replicas and the operand has the value `[1.0, 2.25]` and `[3.0, 5.25]` respectively on the two replicas, then the output value from this op where `scatter_dim` is `0` will be `[4.0]` for the first replica and `[7.5]` for the second replica."
RS_EX1 = "ReduceScatter - Example 1 - StableHLO :: In the above example, there are 2 replicas participating in the ReduceScatter."
RS_ORDER = "ReduceScatter :: The order of replicas in each group determines the order in which the all-reduce result will be scattered."
RS_GLOBAL = "ReduceScatter :: replica_groups={{0,1,4,5},{2,3,6,7}} and use_global_device_ids=true"
RS_TUPLE = "ReduceScatter :: When `operand` is a tuple of arrays, the reduce-scatter is performed on each element of the tuple."
RS_SHAPE = "ReduceScatter :: The output shape is the input shape with the `scatter_dimension` made `shard_count` times smaller."
CP = "CollectivePermute :: CollectivePermute is a collective operation that sends and receives data across replicas."
CP_ZERO = "CollectivePermute :: If a replica id is not a target in any pair, then the output on that replica is a tensor consisting of 0(s) with the same shape as the input."
CP_UNIQUE = "CollectivePermute :: Any two pairs should not have the same target replica id, and they should not have the same source replica id."
CB = "CollectiveBroadcast :: Data is sent from the first replica id in each group to the other ids in the same group."
CB_ZERO = "CollectiveBroadcast :: If a replica id is not in any replica group, the output on that replica is a tensor consisting of 0(s) in `shape`."
RID = "ReplicaId :: Returns the unique ID (U32 scalar) of the replica."
RID_RANGE = "ReplicaId :: The unique ID of each replica is an unsigned integer in the interval `[0, N)`, where `N` is the number of replicas."
PID = "PartitionID :: Produces `partition_id` of the current process."
RA = "RaggedAllToAll :: RaggedAllToAll performs a collective all-to-all operation, where the input and output are ragged tensors."
RA_SEND = "RaggedAllToAll :: For i-th output offset, the current replica will send"
RA_EX = "RaggedAllToAll :: For example, if we have 2 replicas:"
RA_2D = "RaggedAllToAll :: `[num_devices, num_updates]` where ragged-all-to-all may send up to `num_updates` updates the same remote device (each at different offsets), for each remote device in the replica group."
RA_SAME = "RaggedAllToAll :: The `*_offsets` and `*_sizes` tensors must all have the same shape."

POOL = [1, 2, -1, 3, 0.5, -2, 4, 0, 6, 1.5, -0.5, 0.25]


def sample(t, n, start=0):
    """n values of type t (cycling through a small pool)."""
    if t == "pred":
        return [bool((i + start) % 3 != 1) for i in range(n)]
    if H.is_complex(t):
        return [complex(POOL[(i + start) % 6], POOL[(i + start + 3) % 6])
                for i in range(n)]
    vals = [v for v in POOL if U.all_representable(t, [v])]
    return [vals[(i + start) % len(vals)] for i in range(n)]


def lits(t, arrays):
    return [U.lit(t, np.array(a, dtype=object)) for a in arrays]


def dc(name, spec, source, mod, replicas, partitions=1, args=None,
       expects=None, **kw):
    return U.DeviceCase(name, spec, source, mod, replicas, partitions,
                        dev_args=args, dev_expects=expects,
                        tolerance=kw.pop("tolerance", "exact"), **kw)


def groups_text(groups):
    return "{%s}" % ",".join("{%s}" % ",".join(map(str, g)) for g in groups)


# --- all-reduce ----------------------------------------------------------

def reduce_values(t, op, vals):
    acc = vals[0]
    for v in vals[1:]:
        acc = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b,
               "maximum": max, "minimum": min,
               "or": lambda a, b: a or b, "and": lambda a, b: a and b}[op](
                   acc, v)
    return acc


def all_reduce_case(name, spec, t, op, data, groups, n, source="hand",
                    partitions=1, extra="", gtext=None):
    """data: per-device lists (device order); groups: lists of device ids
    (or replica ids) forming each group."""
    length = len(data[0])
    expects = []
    for d in range(n):
        g = next(g for g in groups if d in g)
        out = [reduce_values(t, op, [data[m][i] for m in g])
               for i in range(length)]
        expects.append(U.lit(t, np.array(out, dtype=object)))
    s = U.shape(t, [length])
    if gtext is None:
        gtext = "{}" if len(groups) == 1 and not extra else \
            groups_text(groups)
    mod = U.device_module(n // partitions, partitions, [s], [],
                          "%s all-reduce(p0), replica_groups=%s%s, "
                          "to_apply=red" % (s, gtext, extra),
                          U.binary_comp("red", t, op))
    return dc(name, spec, source, mod, n // partitions, partitions,
              args=[lits(t, [x]) for x in data], expects=expects)


def all_reduce_cases():
    cs = []
    cs.append(all_reduce_case("all-reduce.f32.spec_example", [AR, AR_EX],
                              "f32", "add", [[1.0, 2.5], [3.0, 5.25]],
                              [[0, 1]], 2, source="spec-example"))
    cs.append(all_reduce_case("all-reduce.f32.cross_replica_sum", [
        CRS, "CrossReplicaSum :: Performs `AllReduce` with a summation computation.",
        "CrossReplicaSum :: All replicas supply one input to the sum and all replicas receive the resulting sum for each subgroup."],
                              "f32", "add", [[1, 2], [3, 4], [5, 6]],
                              [[0, 1, 2]], 3))
    data4 = [[1, 10], [2, 20], [4, 40], [8, 80]]
    cs.append(all_reduce_case("all-reduce.s32.groups", [AR_GROUPS, AR_EMPTY],
                              "s32", "add", data4, [[0, 2], [1, 3]], 4))
    for op, t in (("maximum", "f32"), ("minimum", "s8"), ("multiply", "s32"),
                  ("and", "pred"), ("or", "pred")):
        data = [sample(t, 3, i) for i in range(3)]
        cs.append(all_reduce_case("all-reduce.%s.%s" % (t, op), [AR, AR_SHAPE],
                                  t, op, data, [[0, 1, 2]], 3))
    # Types: sum over two replicas.
    for t in H.ALL:
        if t == "pred":
            continue
        for start in range(12):
            data = [sample(t, 3, start), sample(t, 3, start + 5)]
            sums = [a + b for a, b in zip(*data)]
            if U.all_representable(t, sums):
                break
        else:
            data = [sample(t, 3, 0), sample(t, 3, 0)]
            sums = [a + b for a, b in zip(*data)]
            assert U.all_representable(t, sums), t
        cs.append(all_reduce_case("all-reduce.%s.values" % t, [AR], t, "add",
                                  data, [[0, 1]], 2))
    inf, nan = float("inf"), float("nan")
    for t in ("f32", "f64", "bf16", "f16"):
        data = [[inf, nan, 1, -0.0], [-inf, 1, inf, -0.0]]
        cs.append(all_reduce_case(
            "all-reduce.%s.special" % t, [AR], t, "add", data, [[0, 1]], 2))
    # Tuple operand (one computation for every element).
    mod = U.device_module(2, 1, ["f32[2]", "f32[1]"], [],
                          "(f32[2], f32[1]) all-reduce(p0, p1), "
                          "replica_groups={}, to_apply=red",
                          U.binary_comp("red", "f32", "add"))
    cs.append(dc("all-reduce.f32.tuple", [AR_TUPLE, AR_TUPLE_OUT], "hand",
                 mod, 2, args=[["f32[2] {1, 2}", "f32[1] {10}"],
                               ["f32[2] {3, 4}", "f32[1] {20}"]],
                 expects=["(f32[2] {4, 6}, f32[1] {30})"] * 2))
    # Devices: 2 replicas x 2 partitions; device d = replica * 2 + partition.
    data = [[1], [2], [4], [8]]
    cs.append(all_reduce_case(
        "all-reduce.s32.global_device_ids", [AR_GLOBAL], "s32", "add", data,
        [[0, 3], [1, 2]], 4, partitions=2,
        extra=", channel_id=1, use_global_device_ids=true"))
    # Without channel_id the groups are replicas of one partition.
    cs.append(all_reduce_case(
        "all-reduce.s32.cross_replica_per_partition", [AR_EMPTY], "s32",
        "add", data, [[0, 2], [1, 3]], 4, partitions=2, gtext="{{0,1}}"))
    rej = lambda name, spec, mod: U.reject_case(name, spec, mod)
    cs.append(rej("all-reduce.reject.result_shape", [AR_SHAPE],
                  U.device_module(2, 1, ["f32[2]"], [],
                                  "f32[4] all-reduce(p0), replica_groups={}, "
                                  "to_apply=red",
                                  U.binary_comp("red", "f32", "add"))))
    cs.append(rej("all-reduce.reject.computation_type", [AR],
                  U.device_module(2, 1, ["f32[2]"], [],
                                  "f32[2] all-reduce(p0), replica_groups={}, "
                                  "to_apply=red",
                                  U.binary_comp("red", "s32", "add"))))
    cs.append(rej("all-reduce.reject.group_repeats_id", [AR_GROUPS],
                  U.device_module(4, 1, ["f32[2]"], [],
                                  "f32[2] all-reduce(p0), "
                                  "replica_groups={{0,1},{1,2}}, "
                                  "to_apply=red",
                                  U.binary_comp("red", "f32", "add"))))
    return cs


# --- all-gather ----------------------------------------------------------

def all_gather_cases():
    cs = []

    def case(name, spec, t, data, shape, dim, groups, n, source="hand",
             gtext=None):
        arrs = [np.array(x, dtype=object).reshape(shape) for x in data]
        expects = []
        for d in range(n):
            g = next(g for g in groups if d in g)
            expects.append(U.lit(t, np.concatenate([arrs[m] for m in g],
                                                   axis=dim)))
        out = list(shape)
        out[dim] *= len(groups[0])
        mod = U.device_module(n, 1, [U.shape(t, shape)], [],
                              "%s all-gather(p0), replica_groups=%s, "
                              "dimensions={%d}" % (
                                  U.shape(t, out),
                                  gtext if gtext is not None else
                                  groups_text(groups), dim))
        return dc(name, spec, source, mod, n,
                  args=[[U.lit(t, a)] for a in arrs], expects=expects)
    cs.append(case("all-gather.f32.spec_example", [
        AG, AG_EX, AG_SHAPE,
        "AllGather :: `replica_groups` must either be empty (in which case all replicas belong to a single group, ordered from `0` to `N - 1`), or contain the same number of elements as the number of replicas."],
                   "f32", [[1.0, 2.5], [3.0, 5.25]], [2], 0, [[0, 1]], 2,
                   source="spec-example", gtext="{}"))
    cs.append(case("all-gather.s32.groups", [AG_GROUPS], "s32",
                   [[0], [1], [2], [3]], [1], 0, [[0, 2], [1, 3]], 4))
    cs.append(case("all-gather.s32.group_order", [AG_ORDER], "s32",
                   [[0, 0], [1, 1], [2, 2]], [2], 0, [[2, 0, 1]], 3))
    cs.append(case("all-gather.f32.dimension_1", [AG_SHAPE], "f32",
                   [[1, 2, 3, 4], [5, 6, 7, 8]], [2, 2], 1, [[0, 1]], 2))
    for t in H.ALL:
        cs.append(case("all-gather.%s.values" % t, [AG], t,
                       [sample(t, 2, 0), sample(t, 2, 3)], [2], 0, [[0, 1]],
                       2, gtext="{}"))
    cs.append(U.reject_case("all-gather.reject.result_shape", [AG_SHAPE],
                            U.device_module(2, 1, ["f32[2]"], [],
                                            "f32[6] all-gather(p0), "
                                            "replica_groups={}, "
                                            "dimensions={0}")))
    cs.append(U.reject_case("all-gather.reject.dimension", [AG_SHAPE],
                            U.device_module(2, 1, ["f32[2]"], [],
                                            "f32[4] all-gather(p0), "
                                            "replica_groups={}, "
                                            "dimensions={1}")))
    return cs


# --- all-to-all -----------------------------------------------------------

def a2a_client(t, x_per_dev, split_dim, concat_dim, n):
    """The spec's AllToAll(split_dimension, concat_dimension) on each core."""
    outs = []
    for c in range(n):
        blocks = [np.split(np.asarray(x, dtype=object), n,
                           axis=split_dim)[c] for x in x_per_dev]
        outs.append(np.concatenate(blocks, axis=concat_dim))
    return outs


def all_to_all_cases():
    cs = []
    # Example 1: f32[4,16], split dim 1, concat dim 0, 4 cores. HLO's array
    # all-to-all splits and concatenates one dimension, so the client op
    # is written as XLA lowers it: reshape to [4 rows, 4 blocks, 4 cols],
    # move the block dimension first, all-to-all on it, reshape back.
    for name, rows, cols, n, spec, src in (
            ("all-to-all.f32.spec_example_1", 4, 16, 4, [A2A_EX1],
             "spec-example"),
            ("all-to-all.f32.spec_example_2", 2, 4, 2, [A2A_EX2],
             "spec-example")):
        xs = [np.arange(rows * cols).reshape(rows, cols) + 100 * d
              for d in range(n)]
        outs = a2a_client("f32", xs, 1, 0, n)
        bc = cols // n
        body = ["x3 = f32[%d,%d,%d] reshape(p0)" % (rows, n, bc),
                "xt = f32[%d,%d,%d] transpose(x3), dimensions={1,0,2}" % (
                    n, rows, bc),
                "a = f32[%d,%d,%d] all-to-all(xt), replica_groups={}, "
                "dimensions={0}" % (n, rows, bc)]
        mod = U.device_module(n, 1, ["f32[%d,%d]" % (rows, cols)], body,
                              "f32[%d,%d] reshape(a)" % (n * rows, bc))
        cs.append(dc(name, spec + [A2A_SCATTER, A2A_GATHER], src, mod, n,
                     args=[[U.lit("f32", x)] for x in xs],
                     expects=[U.lit("f32", o) for o in outs],
                     note="the values are the spec's data flow on arange "
                          "data (device d adds 100 d)"))

    def array_case(name, spec, t, xs, dim, groups, n, gtext):
        outs = []
        for d in range(n):
            g = next(g for g in groups if d in g)
            k = g.index(d)
            outs.append(np.concatenate([np.split(np.asarray(xs[m], dtype=object),
                                                 len(g), axis=dim)[k]
                                        for m in g], axis=dim))
        s = U.shape(t, np.shape(xs[0]))
        mod = U.device_module(n, 1, [s], [],
                              "%s all-to-all(p0), replica_groups=%s, "
                              "dimensions={%d}" % (s, gtext, dim))
        return dc(name, spec, "hand", mod, n,
                  args=[[U.lit(t, np.asarray(x, dtype=object))] for x in xs],
                  expects=[U.lit(t, o) for o in outs])
    cs.append(array_case("all-to-all.s32.dimension_0", [
        A2A_SCATTER, A2A_GATHER,
        "AllToAll :: If `replica_groups` is empty, all replicas belong to one group, in the concatenation order of their appearance."], "s32",
                         [np.arange(6).reshape(3, 2) + 10 * d
                          for d in range(3)], 0, [[0, 1, 2]], 3, "{}"))
    cs.append(array_case("all-to-all.s32.dimension_1", [A2A_SCATTER], "s32",
                         [np.arange(8).reshape(2, 4) + 10 * d
                          for d in range(2)], 1, [[0, 1]], 2, "{}"))
    cs.append(array_case("all-to-all.s32.spec_groups_example", [
        A2A_GROUPS,
        "AllToAll :: For example, `replica_groups = {{1,2,3}, {4,5,0}}` means that an AllToAll will be applied within replicas `{1, 2, 3}`, and in the gather phase, and the received blocks will be concatenated in the same order of 1, 2, 3.",
        "AllToAll :: Then, another AllToAll will be applied within replicas 4, 5, 0, and the concatenation order is also 4, 5, 0."],
        "s32", [np.arange(3) + 10 * d for d in range(6)], 0,
        [[1, 2, 3], [4, 5, 0]], 6, "{{1,2,3},{4,5,0}}"))
    cs.append(array_case("all-to-all.s32.groups_order", [A2A_GROUPS], "s32",
                         [np.arange(4) + 10 * d for d in range(4)], 0,
                         [[3, 1], [0, 2]], 4, "{{3,1},{0,2}}"))
    for t in H.ALL:
        xs = [np.array(sample(t, 2, 2 * d), dtype=object) for d in range(2)]
        cs.append(array_case("all-to-all.%s.values" % t, [A2A], t, xs, 0,
                             [[0, 1]], 2, "{}"))
    # Tuple form: operand k of member g is element g of member k's result.
    mod = U.device_module(2, 1, ["u32[]", "u32[]"], [],
                          "(u32[], u32[]) all-to-all(p0, p1), "
                          "replica_groups={{0,1}}")
    cs.append(dc("all-to-all.u32.tuple", [A2A_SCATTER], "hand", mod, 2,
                 args=[["u32[] 1", "u32[] 2"], ["u32[] 3", "u32[] 4"]],
                 expects=["(u32[] 1, u32[] 3)", "(u32[] 2, u32[] 4)"]))
    cs.append(U.reject_case("all-to-all.reject.not_divisible", [A2A_DIV],
                            U.device_module(2, 1, ["f32[3]"], [],
                                            "f32[3] all-to-all(p0), "
                                            "replica_groups={}, "
                                            "dimensions={0}")))
    cs.append(U.reject_case("all-to-all.reject.result_shape", [A2A_GATHER],
                            U.device_module(2, 1, ["f32[4]"], [],
                                            "f32[2] all-to-all(p0), "
                                            "replica_groups={}, "
                                            "dimensions={0}")))
    return cs


# --- reduce-scatter -------------------------------------------------------

def reduce_scatter_case(name, spec, t, xs, dim, groups, n, gtext,
                        partitions=1, extra="", source="hand", op="add"):
    arrs = [np.asarray(x, dtype=object) for x in xs]
    outs = []
    for d in range(n):
        g = next(g for g in groups if d in g)
        total = arrs[g[0]]
        for m in g[1:]:
            total = total + arrs[m]
        outs.append(np.split(total, len(g), axis=dim)[g.index(d)])
    out_shape = list(arrs[0].shape)
    out_shape[dim] //= len(groups[0])
    mod = U.device_module(n // partitions, partitions,
                          [U.shape(t, arrs[0].shape)], [],
                          "%s reduce-scatter(p0), replica_groups=%s%s, "
                          "dimensions={%d}, to_apply=red" % (
                              U.shape(t, out_shape), gtext, extra, dim),
                          U.binary_comp("red", t, op))
    return dc(name, spec, source, mod, n // partitions, partitions,
              args=[[U.lit(t, a)] for a in arrs],
              expects=[U.lit(t, o) for o in outs])


def reduce_scatter_cases():
    cs = []
    cs.append(reduce_scatter_case("reduce-scatter.f32.spec_example",
                                  [RS, RS_EX, RS_SHAPE], "f32",
                                  [[1.0, 2.25], [3.0, 5.25]], 0, [[0, 1]], 2,
                                  "{}", source="spec-example"))
    cs.append(reduce_scatter_case(
        "reduce-scatter.f32.spec_example_1", [
            RS_EX1,
            "ReduceScatter - Example 1 - StableHLO :: An all-reduce (sum) is performed across the replicas, producing a reduced value of shape f32[2,4] on each replica.",
            "ReduceScatter - Example 1 - StableHLO :: This reduced value is then split into 2 parts along dimension 1, so each part has shape f32[2,2].",
            "ReduceScatter - Example 1 - StableHLO :: Each replica within the process group receives the part corresponding to its position in the group."],
        "f32",
        [np.arange(8).reshape(2, 4), np.arange(8).reshape(2, 4) * 10], 1,
        [[0, 1]], 2, "{}"))
    cs.append(reduce_scatter_case("reduce-scatter.s32.group_order",
                                  [RS_ORDER], "s32",
                                  [np.arange(3) + 10 * d for d in range(3)],
                                  0, [[1, 2, 0]], 3, "{{1,2,0}}"))
    cs.append(reduce_scatter_case("reduce-scatter.s32.groups", [RS_ORDER],
                                  "s32",
                                  [np.arange(4) * (d + 1) for d in range(4)],
                                  0, [[0, 2], [1, 3]], 4, "{{0,2},{1,3}}"))
    # The spec's use_global_device_ids example: 2 replicas x 4 partitions.
    cs.append(reduce_scatter_case(
        "reduce-scatter.s32.global_device_ids", [RS_GLOBAL], "s32",
        [np.arange(4) + 10 * d for d in range(8)], 0,
        [[0, 1, 4, 5], [2, 3, 6, 7]], 8, "{{0,1,4,5},{2,3,6,7}}",
        partitions=4, extra=", channel_id=1, use_global_device_ids=true"))
    for t in H.ALL:
        if t == "pred":
            continue
        for start in range(12):
            xs = [sample(t, 2, start), sample(t, 2, start + 5)]
            if U.all_representable(t, [a + b for a, b in zip(*xs)]):
                break
        cs.append(reduce_scatter_case("reduce-scatter.%s.values" % t, [RS],
                                      t, xs, 0, [[0, 1]], 2, "{}"))
    # Tuple operand: each element reduce-scattered.
    mod = U.device_module(2, 1, ["f32[2]", "f32[4]"], [],
                          "(f32[1], f32[2]) reduce-scatter(p0, p1), "
                          "replica_groups={}, dimensions={0}, to_apply=red",
                          U.binary_comp("red", "f32", "add"))
    cs.append(dc("reduce-scatter.f32.tuple", [RS_TUPLE], "hand", mod, 2,
                 args=[["f32[2] {1, 2}", "f32[4] {1, 2, 3, 4}"],
                       ["f32[2] {10, 20}", "f32[4] {10, 20, 30, 40}"]],
                 expects=["(f32[1] {11}, f32[2] {11, 22})",
                          "(f32[1] {22}, f32[2] {33, 44})"]))
    cs.append(U.reject_case("reduce-scatter.reject.group_sizes_differ", [
        "ReduceScatter :: When there are more than one replica groups, they all must be of the same size."],
        U.device_module(3, 1, ["f32[4]"], [],
                        "f32[2] reduce-scatter(p0), "
                        "replica_groups={{0,1},{2}}, dimensions={0}, "
                        "to_apply=red", U.binary_comp("red", "f32", "add"))))
    cs.append(U.reject_case("reduce-scatter.reject.shard_count", [
        "ReduceScatter :: If `replica_groups` is not empty, `shard_count` must be equal to the size of each replica group."],
        U.device_module(4, 1, ["f32[4]"], [],
                        "f32[1] reduce-scatter(p0), "
                        "replica_groups={{0,1},{2,3}}, dimensions={0}, "
                        "to_apply=red", U.binary_comp("red", "f32", "add"))))
    cs.append(U.reject_case("reduce-scatter.reject.result_shape", [RS_SHAPE],
                            U.device_module(2, 1, ["f32[4]"], [],
                                            "f32[4] reduce-scatter(p0), "
                                            "replica_groups={}, "
                                            "dimensions={0}, to_apply=red",
                                            U.binary_comp("red", "f32",
                                                          "add"))))
    return cs


# --- collective-permute / collective-broadcast ----------------------------

def permute_case(name, spec, t, xs, pairs, n, channel=""):
    outs = []
    for d in range(n):
        src = [s for s, tg in pairs if tg == d]
        outs.append(np.asarray(xs[src[0]], dtype=object) if src else
                    np.zeros(np.shape(xs[0]), dtype=object) if not H.is_complex(t)
                    else np.zeros(np.shape(xs[0]), dtype=object) + 0j)
    s = U.shape(t, np.shape(xs[0]))
    mod = U.device_module(n, 1, [s], [],
                          "%s collective-permute(p0), %ssource_target_pairs="
                          "%s" % (s, channel, groups_text(pairs)))
    return dc(name, spec, "hand", mod, n,
              args=[[U.lit(t, np.asarray(x, dtype=object))] for x in xs],
              expects=[U.lit(t, o) for o in outs])


def permute_cases():
    cs = []
    xs = [[1 + d, 10 * d] for d in range(4)]
    cs.append(permute_case("collective-permute.s32.cycle", [
        CP, CP_UNIQUE],
                           "s32", xs, [[0, 1], [1, 2], [2, 3], [3, 0]], 4))
    cs.append(permute_case("collective-permute.s32.not_a_target", [CP_ZERO],
                           "s32", xs, [[0, 2], [2, 0], [3, 1]], 4))
    cs.append(permute_case("collective-permute.f32.identity", [CP], "f32",
                           [[1.5], [2.5]], [[0, 0], [1, 1]], 2))
    for t in H.ALL:
        if t == "f8e8m0fnu":
            continue  # no zero: a device no pair targets gets 0
        cs.append(permute_case("collective-permute.%s.values" % t, [
            CP, CP_ZERO], t, [sample(t, 2, 3 * d) for d in range(3)],
            [[0, 1], [1, 0]], 3))
    cs.append(permute_case("collective-permute.f8e8m0fnu.values", [CP],
                           "f8e8m0fnu", [[1, 2], [0.5, 4]], [[0, 1], [1, 0]],
                           2))
    cs.append(U.reject_case("collective-permute.reject.duplicate_target",
                            [CP_UNIQUE],
                            U.device_module(3, 1, ["f32[2]"], [],
                                            "f32[2] collective-permute(p0), "
                                            "source_target_pairs="
                                            "{{0,1},{2,1}}")))
    cs.append(U.reject_case("collective-permute.reject.duplicate_source",
                            [CP_UNIQUE],
                            U.device_module(3, 1, ["f32[2]"], [],
                                            "f32[2] collective-permute(p0), "
                                            "source_target_pairs="
                                            "{{0,1},{0,2}}")))
    return cs


def broadcast_case(name, spec, t, xs, groups, n):
    outs = []
    for d in range(n):
        g = [g for g in groups if d in g]
        outs.append(np.asarray(xs[g[0][0]], dtype=object) if g else
                    np.zeros(np.shape(xs[0]), dtype=object))
    s = U.shape(t, np.shape(xs[0]))
    mod = U.device_module(n, 1, [s], [],
                          "%s collective-broadcast(p0), replica_groups=%s" % (
                              s, groups_text(groups)))
    return dc(name, spec, "hand", mod, n,
              args=[[U.lit(t, np.asarray(x, dtype=object))] for x in xs],
              expects=[U.lit(t, o) for o in outs])


def broadcast_cases():
    cs = []
    xs = [[1 + d, 10 * d] for d in range(4)]
    cs.append(broadcast_case("collective-broadcast.s32.one_group", [CB],
                             "s32", xs, [[0, 1, 2, 3]], 4))
    cs.append(broadcast_case("collective-broadcast.s32.first_id", [CB],
                             "s32", xs, [[2, 0], [3, 1]], 4))
    cs.append(broadcast_case("collective-broadcast.s32.not_in_group",
                             [CB_ZERO], "s32", xs, [[1, 2]], 4))
    for t in H.ALL:
        cs.append(broadcast_case("collective-broadcast.%s.values" % t, [CB],
                                 t, [sample(t, 2, 3 * d) for d in range(2)],
                                 [[1, 0]], 2))
    cs.append(U.reject_case("collective-broadcast.reject.result_shape", [CB],
                            U.device_module(2, 1, ["f32[2]"], [],
                                            "f32[3] collective-broadcast(p0), "
                                            "replica_groups={{0,1}}")))
    return cs


# --- replica-id / partition-id --------------------------------------------

def id_cases():
    rid, pid = [], []
    for r, p in ((1, 1), (4, 1), (2, 3)):
        mod = U.device_module(r, p, [], [], "u32[] replica-id()")
        rid.append(dc("replica-id.u32.r%dp%d" % (r, p), [RID, RID_RANGE],
                      "hand", mod, r, p,
                      expects=["u32[] %d" % (d // p) for d in range(r * p)]))
        mod = U.device_module(r, p, [], [], "u32[] partition-id()")
        pid.append(dc("partition-id.u32.r%dp%d" % (r, p), [PID], "hand", mod,
                      r, p,
                      expects=["u32[] %d" % (d % p) for d in range(r * p)]))
    # Uses: select data by replica id.
    mod = U.device_module(3, 1, ["s32[3]"], [
        "i = u32[] replica-id()", "j = s32[] convert(i)"],
        "s32[1] dynamic-slice(p0, j), dynamic_slice_sizes={1}")
    rid.append(dc("replica-id.u32.indexes_data", [
        "ReplicaId :: Since all the replicas are running the same program, a `ReplicaId()` call in the program will return a different value on each replica."],
        "hand", mod, 3, args=[["s32[3] {7, 8, 9}"]] * 3,
        expects=["s32[1] {7}", "s32[1] {8}", "s32[1] {9}"]))
    rid.append(U.reject_case("replica-id.reject.type", [RID], U.entry(
        [], [], "s32[] replica-id()")))
    pid.append(U.reject_case("partition-id.reject.shape", [PID], U.entry(
        [], [], "u32[2] partition-id()")))
    return rid, pid


# --- ragged-all-to-all ----------------------------------------------------

def ragged_case(name, spec, source, t, dev, idx_t="s64", groups="{{0,1}}"):
    """dev: per device (input, output, input_offsets, send_sizes,
    output_offsets, recv_sizes)."""
    n = len(dev)
    outs = [np.array(d[1], dtype=object) for d in dev]
    for g in range(n):
        inp, _, ioff, ssz, ooff, _ = dev[g]
        ioff, ssz, ooff = (np.atleast_2d(np.array(a).T).T if np.ndim(a) == 1
                           else np.array(a) for a in (ioff, ssz, ooff))
        for k in range(n):
            for u in range(ioff.shape[1]):
                a, s, o = ioff[k][u], ssz[k][u], ooff[k][u]
                outs[k][o:o + s] = np.array(inp, dtype=object)[a:a + s]
    shp = lambda a: U.shape(t, np.shape(a))
    ish = lambda a: U.shape(idx_t, np.shape(a))
    d0 = dev[0]
    params = [shp(d0[0]), shp(d0[1])] + [ish(a) for a in d0[2:]]
    mod = U.device_module(n, 1, params, [],
                          "%s ragged-all-to-all(p0, p1, p2, p3, p4, p5), "
                          "replica_groups=%s" % (shp(d0[1]), groups))
    args = [[U.lit(t, np.array(d[0], dtype=object)),
             U.lit(t, np.array(d[1], dtype=object))] +
            [U.lit(idx_t, np.array(a, dtype=object)) for a in d[2:]]
            for d in dev]
    return dc(name, spec, source, mod, n, args=args,
              expects=[U.lit(t, o) for o in outs])


def ragged_cases():
    cs = []
    ex = [([1, 2, 2], [0, 0, 0, 0], [0, 1], [1, 2], [0, 0], [1, 1]),
          ([3, 4, 0], [0, 0, 0, 0], [0, 1], [1, 1], [1, 2], [2, 1])]
    cs.append(ragged_case("ragged-all-to-all.f32.spec_example", [RA, RA_EX,
                                                                 RA_SEND],
                          "spec-example", "f32", ex))
    # The spec's ragged tensor (data [8,3], offsets {0, 1, 4}, sizes
    # {1, 3, 4}): device g sends ragged element k to device k.
    data = np.arange(24).reshape(8, 3)
    dev = [(data + 100 * g, np.full((8, 3), -1), [0, 1, 4], [1, 3, 4],
            [[0, 1, 4], [1, 4, 0], [4, 0, 1]][g], [1, 3, 4]) for g in range(3)]
    cs.append(ragged_case("ragged-all-to-all.s32.spec_ragged_tensor", [
        "RaggedAllToAll :: An example ragged tensor:",
        "RaggedAllToAll :: A sub-element is defined as the suffix of the ‘data’ tensor shape obtained by removing the outermost “ragged” dimension.",
        RA_SEND], "hand", "s32", dev, groups="{{0,1,2}}"))
    cs.append(ragged_case("ragged-all-to-all.s32.s32_offsets", [RA_SEND],
                          "hand", "s32", ex, idx_t="s32"))
    # Rows of a 2-D input move whole; the output keeps its other rows.
    dev = [(np.arange(6).reshape(3, 2) + 10, np.full((4, 2), -1), [0, 2],
            [2, 1], [0, 0], [2, 1]),
           (np.arange(6).reshape(3, 2) + 20, np.full((4, 2), -2), [1, 0],
            [1, 3], [2, 1], [1, 3])]
    cs.append(ragged_case("ragged-all-to-all.s32.rows", [RA, RA_SEND],
                          "hand", "s32", dev))
    # [num_devices, num_updates] offsets.
    dev = [([1, 2, 3, 4], [0] * 6, [[0, 2], [1, 3]], [[1, 1], [1, 1]],
            [[0, 2], [0, 2]], [[1, 1], [1, 1]]),
           ([5, 6, 7, 8], [0] * 6, [[0, 1], [2, 3]], [[1, 1], [1, 1]],
            [[1, 3], [1, 3]], [[1, 1], [1, 1]])]
    cs.append(ragged_case("ragged-all-to-all.s32.num_updates", [RA_2D],
                          "hand", "s32", dev))
    for t in H.ALL:
        if t == "f8e8m0fnu":
            base = [(list(sample(t, 3, 0)), [1] * 4, [0, 1], [1, 2], [0, 0],
                     [1, 1]),
                    (list(sample(t, 3, 1)), [1] * 4, [0, 1], [1, 1], [1, 2],
                     [2, 1])]
        else:
            base = [(sample(t, 3, 0), [sample(t, 1, 7)[0] if t == "pred"
                                       else 0] * 4, [0, 1], [1, 2], [0, 0],
                     [1, 1]),
                    (sample(t, 3, 4), [0 if t != "pred" else False] * 4,
                     [0, 1], [1, 1], [1, 2], [2, 1])]
        cs.append(ragged_case("ragged-all-to-all.%s.values" % t, [RA_SEND],
                              "hand", t, base))
    cs.append(U.reject_case("ragged-all-to-all.reject.offsets_shape",
                            [RA_SAME], U.device_module(
                                2, 1, ["f32[3]", "f32[4]", "s64[2]", "s64[3]",
                                       "s64[2]", "s64[2]"], [],
                                "f32[4] ragged-all-to-all(p0, p1, p2, p3, p4, "
                                "p5), replica_groups={{0,1}}")))
    cs.append(U.reject_case("ragged-all-to-all.reject.result_shape", [RA],
                            U.device_module(
                                2, 1, ["f32[3]", "f32[4]"] + ["s64[2]"] * 4,
                                [], "f32[3] ragged-all-to-all(p0, p1, p2, p3, "
                                "p4, p5), replica_groups={{0,1}}")))
    return cs


AR_ASYNC = "AllReduce :: `AllReduceStart` and `AllReduceDone` serve as primitives in HLO."
AG_ASYNC = "AllGather :: `AllGatherStart`, `AllGatherDone` serve as primitives in HLO."
CP_ASYNC = "CollectivePermute :: `CollectivePermuteStart` and `CollectivePermuteDone` serve as primitives in HLO."


def async_cases():
    """The -start/-done halves give the same values as the plain ops."""
    cs = []
    for t in ("f32", "s32", "bf16", "u8", "c64"):
        for start in range(12):
            xs = [sample(t, 2, start), sample(t, 2, start + 5)]
            if U.all_representable(t, [a + b for a, b in zip(*xs)]):
                break
        s2, s4 = U.shape(t, [2]), U.shape(t, [4])
        body = ["ars = %s all-reduce-start(p0), replica_groups={}, "
                "to_apply=red" % s2,
                "ard = %s all-reduce-done(ars)" % s2,
                "ags = (%s, %s) all-gather-start(p0), replica_groups={}, "
                "dimensions={0}" % (s2, s4),
                "agd = %s all-gather-done(ags)" % s4,
                "cps = (%s, %s, u32[], u32[]) collective-permute-start(p0), "
                "source_target_pairs={{0,1},{1,0}}" % (s2, s2),
                "cpd = %s collective-permute-done(cps)" % s2]
        mod = U.device_module(2, 1, [s2], body, "(%s, %s, %s) tuple(ard, agd, "
                              "cpd)" % (s2, s4, s2),
                              U.binary_comp("red", t, "add"))
        arrs = [np.array(x, dtype=object) for x in xs]
        total = arrs[0] + arrs[1]
        gathered = np.concatenate(arrs)
        cs.append(dc("async-collectives.%s.start_done" % t,
                     [AR_ASYNC, AG_ASYNC, CP_ASYNC], "hand", mod, 2,
                     args=[[U.lit(t, a)] for a in arrs],
                     expects=[U.tuple_lit([U.lit(t, total),
                                           U.lit(t, gathered),
                                           U.lit(t, arrs[1 - d])])
                              for d in range(2)]))
    cs.append(U.reject_case("async-collectives.reject.done_operand",
                            [AR_ASYNC], U.device_module(
                                2, 1, ["f32[2]"], [],
                                "f32[4] all-gather-done(p0)")))
    return cs


def main():
    rid, pid = id_cases()
    for stem, cases in (("all-reduce", all_reduce_cases()),
                        ("all-gather", all_gather_cases()),
                        ("all-to-all", all_to_all_cases()),
                        ("reduce-scatter", reduce_scatter_cases()),
                        ("collective-permute", permute_cases()),
                        ("collective-broadcast", broadcast_cases()),
                        ("replica-id", rid), ("partition-id", pid),
                        ("ragged-all-to-all", ragged_cases()),
                        ("async-collectives", async_cases())):
        op = stem if stem != "async-collectives" else (
            "all-reduce-start, all-reduce-done, all-gather-start, "
            "all-gather-done, collective-permute-start, "
            "collective-permute-done")
        H.write_file("collectives", stem, op, cases,
                     "%s on simulated devices (replicas: x partitions:); "
                     "device d is replica d / partitions, partition d %% "
                     "partitions." % stem, GEN)
        print(stem, len(cases))


if __name__ == "__main__":
    main()
