"""Helpers of gen_reduction.py, gen_indexing.py and gen_control_flow.py:
value pools per element type, module text with called computations, exact
scalar arithmetic in a type, and small reference implementations (written
from the spec's formal descriptions, in plain Python) of reduce-window,
select-and-scatter, gather and scatter.

Nothing here runs or imports Kiln.
"""
import itertools
import math

import numpy as np

import hlotest as h

NAN = float("nan")
INF = float("inf")

# Every element type an op with a computation accepts, in suite order.
NUMERIC = h.INTS + h.FLOATS  # no pred, no complex
ORDERED = ["pred"] + h.INTS + h.FLOATS  # types with compare LT/GT


# --- values ---------------------------------------------------------------


def pool(t):
    """Distinct, exactly representable values of t, small ones first
    (no NaN, no inf); integers in their range."""
    if t == "pred":
        return [False, True]
    if h.is_int(t):
        lo, hi = h.int_range(t)
        out = []
        for v in [0, 1, -1, 2, 3, -2, 5, 4, -3, 7, 6, -4, 9, 8, 11, 10, 13,
                  12, -7, -8]:
            if lo <= v <= hi and v not in out:
                out.append(v)
        return out
    if h.is_complex(t):
        return [complex(a, b) for a, b in [(1, -1), (2, 0.5), (-3, 4),
                                           (0.25, -2), (5, 6), (-1, -1)]]
    cand = [1.0, 2.0, 0.5, -1.0, 3.0, -2.0, 1.5, 4.0, -0.5, 6.0, -3.0,
            0.25, -4.0, 8.0, -1.5, 12.0, 0.75, -6.0, 16.0, -8.0]
    if t == "f8e8m0fnu":
        cand = [2.0 ** k for k in [0, 1, -1, 2, 3, -2, 4, 5, -3, 6]]
    return [v for v in cand if h.representable(t, v)]


def take(t, n, start=0):
    """n values of t cycling through pool(t)."""
    p = pool(t)
    return [p[(i + start) % len(p)] for i in range(n)]


def distinct(t, n):
    """n distinct values of t (as many as the type has, at most n)."""
    return pool(t)[:n]


def lowest(t):
    """The identity of maximum: -inf or the lowest finite value."""
    if t == "pred":
        return False
    if h.is_int(t):
        return h.int_range(t)[0]
    if h.has_inf(t):
        return -INF
    if t == "f8e8m0fnu":
        return float(h.finfo(t).min)
    return -float(h.finfo(t).max)


def highest(t):
    if t == "pred":
        return True
    if h.is_int(t):
        return h.int_range(t)[1]
    if h.has_inf(t):
        return INF
    return float(h.finfo(t).max)


def lit(t, arr):
    """Literal text of a numpy object array (or nested list) of type t."""
    arr = np.asarray(arr, dtype=object)
    return h.literal(t, list(arr.reshape(-1)), list(arr.shape))


def arr(t, dims, start=0):
    n = int(np.prod(dims)) if dims else 1
    return np.array(take(t, n, start), dtype=object).reshape(dims)


def shp(t, dims):
    return h.shape_text(t, dims)


def tuple_lit(parts):
    return "(" + ", ".join(parts) + ")"


# --- exact scalar arithmetic in a type --------------------------------------


def rnd(t, v):
    """v (exact Python number) rounded to type t, as a Python number."""
    if t == "pred":
        return bool(v)
    if h.is_int(t):
        return h.wrap(t, int(v))
    if h.is_complex(t):
        return complex(h.to_type(t, v))
    return float(h.to_type(t, float(v)))


def is_nan(v):
    return isinstance(v, float) and math.isnan(v)


def fmax(t, a, b):
    """maximum: NaN propagates (elementwise Max)."""
    if t == "pred":
        return a or b
    if is_nan(a) or is_nan(b):
        return NAN
    return max(a, b)


def fmin(t, a, b):
    if t == "pred":
        return a and b
    if is_nan(a) or is_nan(b):
        return NAN
    return min(a, b)


def total_key(t, v):
    """compare TOTALORDER key: the sign-magnitude bit pattern of v in t as
    an ordered integer (-NaN < -inf < ... < -0 < +0 < ... < +inf < NaN;
    a fnuz type's NaN is the pattern of -0)."""
    raw = int.from_bytes(h.bits_of(t, h.to_type(t, v)), "little")
    if t == "f8e8m0fnu":
        return raw  # no sign bit: NaN (0xff) is the largest pattern
    sign = 1 << (h.BITS[t] - 1)
    if raw & sign:
        return -(raw & (sign - 1)) - 1
    return raw


def binop(op, t):
    """Python function computing the HLO binary op in type t exactly
    (one rounding of the exact result)."""
    if op == "add":
        if t == "pred":
            return lambda a, b: a or b
        return lambda a, b: rnd(t, a + b)
    if op == "multiply":
        if t == "pred":
            return lambda a, b: a and b
        return lambda a, b: rnd(t, a * b)
    if op == "subtract":
        return lambda a, b: rnd(t, a - b)
    if op == "maximum":
        return lambda a, b: fmax(t, a, b)
    if op == "minimum":
        return lambda a, b: fmin(t, a, b)
    if op == "or":
        return lambda a, b: a or b if t == "pred" else a | b
    if op == "and":
        return lambda a, b: a and b if t == "pred" else a & b
    raise ValueError(op)


# --- module text ------------------------------------------------------------


def scalar_comp(name, t, op, out_t=None, extra=""):
    """A computation (t[], t[]) -> out_t[] whose root is `op(a, b)`;
    op may be a full expression such as 'compare(a, b), direction=LT'."""
    out_t = out_t or t
    expr = op if "(" in op else "%s(a, b)" % op
    lines = ["%s {" % name, "  a = %s[] parameter(0)" % t,
             "  b = %s[] parameter(1)" % t]
    if extra:
        lines.extend("  " + l for l in extra.strip("\n").split("\n"))
    lines.append("  ROOT c = %s[] %s" % (out_t, expr))
    lines.append("}")
    return "\n".join(lines)


def module(comps, params, root_shape, root_expr, extra=""):
    """Module text: called computations, then ENTRY with params p0..pn,
    extra instruction lines, and ROOT r."""
    lines = ["HloModule m"]
    for c in comps:
        # No blank lines: a case file indents every module line, and a
        # blank one would become trailing whitespace.
        lines.extend(l for l in c.strip("\n").split("\n") if l.strip())
    lines.append("ENTRY e {")
    for i, p in enumerate(params):
        lines.append("  p%d = %s parameter(%d)" % (i, p, i))
    if extra:
        lines.extend("  " + l for l in extra.strip("\n").split("\n"))
    lines.append("  ROOT r = %s %s" % (root_shape, root_expr))
    lines.append("}")
    return "\n".join(lines)


# --- reference implementations ---------------------------------------------

HOLE = object()  # a base-dilation hole: skipped by the window


def reduce_window(operands, inits, fn, size, stride, pad=None, lhs=None,
                  rhs=None):
    """ReduceWindow of N numpy object arrays. fn takes (acc..., x...) and
    returns a tuple of N. Padding cells hold the init values, holes
    inserted by base dilation are ignored. Returns N arrays."""
    rank = operands[0].ndim
    pad = pad or [(0, 0)] * rank
    lhs = lhs or [1] * rank
    rhs = rhs or [1] * rank
    n = len(operands)
    # The dilated and padded base area: cell -> index into operand or
    # "pad" / HOLE.
    extents = []
    for d in range(rank):
        dil = (operands[0].shape[d] - 1) * lhs[d] + 1 if \
            operands[0].shape[d] else 0
        extents.append(pad[d][0] + dil + pad[d][1])
    wext = [(size[d] - 1) * rhs[d] + 1 for d in range(rank)]
    out_dims = [max(0, (extents[d] - wext[d]) // stride[d] + 1)
                if extents[d] >= wext[d] else 0 for d in range(rank)]
    outs = [np.empty(out_dims, dtype=object) for _ in range(n)]

    def base_cell(d, pos):
        p = pos - pad[d][0]
        dil = (operands[0].shape[d] - 1) * lhs[d] + 1
        if p < 0 or p >= dil:
            return "pad"
        if p % lhs[d]:
            return HOLE
        return p // lhs[d]

    for o in itertools.product(*[range(x) for x in out_dims]):
        acc = tuple(inits)
        for w in itertools.product(*[range(x) for x in size]):
            cells = [base_cell(d, o[d] * stride[d] + w[d] * rhs[d])
                     for d in range(rank)]
            if any(c is HOLE for c in cells):
                continue
            if any(c == "pad" for c in cells if not isinstance(c, int)):
                xs = tuple(inits)
            else:
                xs = tuple(a[tuple(cells)] for a in operands)
            acc = fn(*(acc + xs))
        for i in range(n):
            outs[i][o] = acc[i]
    return outs


def select_and_scatter(operand, source, init, select, scatter, size,
                       stride, pad=None):
    """select(a, b) -> bool keeps a (the lexicographically earlier one)
    when true; padding cells never win (XLA), scatter(cur, s)."""
    rank = operand.ndim
    pad = pad or [(0, 0)] * rank
    out = np.empty(operand.shape, dtype=object)
    out[...] = init
    for o in itertools.product(*[range(x) for x in source.shape]):
        best = None
        for w in itertools.product(*[range(x) for x in size]):
            idx = tuple(o[d] * stride[d] + w[d] - pad[d][0]
                        for d in range(rank))
            if any(i < 0 or i >= operand.shape[d]
                   for d, i in enumerate(idx)):
                continue
            if best is None or not select(operand[best], operand[idx]):
                best = idx
        if best is not None:
            out[best] = scatter(out[best], source[o])
    return out


def _combine(g, i, ivd):
    g = list(g)
    return tuple(g[:ivd] + [i] + g[ivd:])


def gather(operand, idx, offset_dims, collapsed, start_index_map, ivd,
           slice_sizes, op_batch=(), idx_batch=()):
    """The spec's formal gather, with the starting index clamped so that
    the slice is in bounds (as dynamic-slice does)."""
    if ivd == idx.ndim:
        idx = idx.reshape(idx.shape + (1,))
    rank = operand.ndim
    batch_shape = [idx.shape[d] for d in range(idx.ndim) if d != ivd]
    offset_sizes = [slice_sizes[d] for d in range(rank)
                    if d not in collapsed and d not in op_batch]
    out_rank = len(batch_shape) + len(offset_sizes)
    batch_dims = [d for d in range(out_rank) if d not in offset_dims]
    out_dims = [0] * out_rank
    for k, d in enumerate(batch_dims):
        out_dims[d] = batch_shape[k]
    for k, d in enumerate(offset_dims):
        out_dims[d] = offset_sizes[k]
    remapped = [d for d in range(rank)
                if d not in collapsed and d not in op_batch]
    out = np.empty(out_dims, dtype=object)
    for o in itertools.product(*[range(x) for x in out_dims]):
        g = [o[d] for d in batch_dims]
        s = [idx[_combine(g, i, ivd)] for i in range(idx.shape[ivd])]
        start = [0] * rank
        for k, d in enumerate(start_index_map):
            start[d] = int(s[k])
        # Batching dims: the start on operand_batching_dims[i] is the
        # batch index of start_indices_batching_dims[i].
        gdims = [d for d in range(idx.ndim) if d != ivd]
        for ob, ib in zip(op_batch, idx_batch):
            start[ob] = g[gdims.index(ib)]
        for d in range(rank):
            start[d] = min(max(start[d], 0), operand.shape[d] - slice_sizes[d])
        full = list(start)
        for k, d in enumerate(offset_dims):
            full[remapped[k]] += o[d]
        out[o] = operand[tuple(full)]
    return out


def scatter(operands, idx, updates, fn, update_window_dims, inserted,
            sd2od, ivd, in_batch=(), idx_batch=()):
    """The spec's scatter: updates applied in row-major update order; an
    element whose operand index is out of bounds is skipped (per element,
    as the spec's summary says). fn(cur..., upd...) -> tuple."""
    if ivd == idx.ndim:
        idx = idx.reshape(idx.shape + (1,))
    outs = [o.copy() for o in operands]
    rank = operands[0].ndim
    urank = updates[0].ndim
    scatter_dims = [d for d in range(urank) if d not in update_window_dims]
    win_to_op = [d for d in range(rank)
                 if d not in inserted and d not in in_batch]
    gdims = [d for d in range(idx.ndim) if d != ivd]
    for u in itertools.product(*[range(x) for x in updates[0].shape]):
        g = [u[d] for d in scatter_dims]
        s = [idx[_combine(g, i, ivd)] for i in range(idx.shape[ivd])]
        full = [0] * rank
        for k, d in enumerate(sd2od):
            full[d] = int(s[k])
        for ob, ib in zip(in_batch, idx_batch):
            full[ob] = g[gdims.index(ib)]
        for k, d in enumerate(update_window_dims):
            full[win_to_op[k]] += u[d]
        if any(i < 0 or i >= operands[0].shape[d]
               for d, i in enumerate(full)):
            continue
        full = tuple(full)
        res = fn(*([o[full] for o in outs] + [x[u] for x in updates]))
        for o, v in zip(outs, res):
            o[full] = v
    return outs


class OpCase(h.Case):
    """A case with its own `op:` line (the ops it exercises, when they are
    not the file's, e.g. async-update within the async file)."""

    def __init__(self, ops, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ops = ops

    def text(self):
        first, rest = super().text().split("\n", 1)
        return "%s\nop: %s\n%s" % (first, self.ops, rest)


def add_spec(cases, mapping):
    """Appends the spec fragments mapping[prefix] to every case whose name
    starts with prefix (more sentences a case exercises)."""
    for prefix in mapping:
        if not any(c.name.startswith(prefix) for c in cases):
            raise ValueError("add_spec: no case named %s*" % prefix)
    for c in cases:
        for prefix, frags in mapping.items():
            if c.name.startswith(prefix):
                for f in frags:
                    tag = h.check_spec(f)
                    if tag not in c.spec:
                        c.spec.append(tag)
    return cases
