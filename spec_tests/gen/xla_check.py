"""Cross-checks the expected values of the elementwise .hlotest files
against XLA itself (jax on CPU): prints every case where XLA's result
differs from the expected value. It does not write any expected value;
the disagreements are reviewed by hand and recorded in README.md.

Run: /tmp/xlavenv/bin/python spec_tests/gen/xla_check.py [files...]
(default: every spec_tests/elementwise/*.hlotest)
"""
import glob
import math
import os
import re
import sys

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
import numpy as np  # noqa: E402

import hlotest as h  # noqa: E402

# ULP bounds of the runner's table (tools/conform/tolerance.cc), used only
# to tell accuracy differences from semantic ones.
ULPS = {"exponential": 2, "exponential-minus-one": 2, "log": 2,
        "log-plus-one": 2, "logistic": 2, "tanh": 2, "sine": 2, "cosine": 2,
        "tan": 3, "cosh": 2, "atan2": 2, "power": 4, "rsqrt": 2, "cbrt": 2,
        "erf": 2}

UNARY = {
    "abs": lax.abs, "negate": lax.neg, "sign": lax.sign, "ceil": lax.ceil,
    "floor": lax.floor,
    "round-nearest-afz": lambda x: lax.round(
        x, lax.RoundingMethod.AWAY_FROM_ZERO),
    "round-nearest-even": lambda x: lax.round(
        x, lax.RoundingMethod.TO_NEAREST_EVEN),
    "is-finite": lax.is_finite, "not": lax.bitwise_not,
    "popcnt": lax.population_count, "count-leading-zeros": lax.clz,
    "real": lax.real, "exponential": lax.exp,
    "exponential-minus-one": lax.expm1, "log": lax.log,
    "log-plus-one": lax.log1p, "logistic": lax.logistic, "sqrt": lax.sqrt,
    "rsqrt": lax.rsqrt, "cbrt": lax.cbrt, "sine": lax.sin, "cosine": lax.cos,
    "tan": lax.tan, "tanh": lax.tanh, "cosh": lax.cosh, "erf": lax.erf,
}
BINARY = {
    "add": lax.add, "subtract": lax.sub, "multiply": lax.mul,
    "divide": lax.div, "remainder": lax.rem, "maximum": lax.max,
    "minimum": lax.min, "power": lax.pow, "atan2": lax.atan2,
    "and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor,
    "shift-left": lax.shift_left,
    "shift-right-arithmetic": lax.shift_right_arithmetic,
    "shift-right-logical": lax.shift_right_logical, "complex": lax.complex,
}
COMPARE = {"EQ": lax.eq, "NE": lax.ne, "GE": lax.ge, "GT": lax.gt,
           "LE": lax.le, "LT": lax.lt}


def parse_cases(path):
    cases, cur = [], None
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("case "):
            cur = {"name": line[5:].strip(), "args": []}
            cases.append(cur)
        elif cur is not None and re.match(r"^[a-z-]+:", line):
            k, v = line.split(":", 1)
            v = v.strip()
            if not v:
                block = []
                while i + 1 < len(lines) and lines[i + 1].startswith("  "):
                    i += 1
                    block.append(lines[i][2:])
                v = "\n".join(block)
            if k == "arg":
                cur["args"].append(v)
            else:
                cur[k] = v
        i += 1
    return cases


def parse_literal(text):
    m = re.match(r"^(\w+)\[([\d,]*)\]\s*(.*)$", text.strip(), re.S)
    t, dims, body = m.group(1), m.group(2), m.group(3)
    dims = [int(d) for d in dims.split(",")] if dims else []
    toks = [x for x in re.split(r"[{}(),\s]+", body) if x]

    def num(tok):
        if tok in ("true", "false"):
            return tok == "true"
        if "nan" in tok:
            return -math.nan if tok.startswith("-") else math.nan
        if t in h.INTS:
            return int(tok)
        return float(tok)
    vals = [num(x) for x in toks]
    if t in h.COMPLEX:
        vals = [complex(vals[j], vals[j + 1]) for j in range(0, len(vals), 2)]
    if t == "pred":
        arr = np.array([bool(v) for v in vals], dtype=np.bool_)
    elif t in h.INTS:
        arr = np.array(vals, dtype=object)
        arr = np.array([int(v) for v in vals]).astype(h.DTYPE[t]) if t not in (
            "u64",) else np.array(vals, dtype=np.uint64)
    else:
        arr = np.array(vals, dtype=np.complex128 if t in h.COMPLEX
                       else np.float64)
        arr = np.array([h.to_type(t, v) if t not in h.COMPLEX else v
                        for v in vals], dtype=h.DTYPE[t])
    return t, arr.reshape(dims)


def run_jax(case):
    root = [l for l in case["module"].split("\n") if "ROOT" in l][0]
    m = re.match(r"\s*ROOT r = (\w+)\[[\d,]*\] ([\w-]+)\(([^)]*)\)(.*)$", root)
    if not m or "broadcast_dimensions" in root or "tuple" in case["module"]:
        return None
    rtype, op, attrs = m.group(1), m.group(2), m.group(4)
    args = [jnp.asarray(parse_literal(a)[1]) for a in case["args"]]
    if op in UNARY:
        return UNARY[op](args[0])
    if op in BINARY:
        if any(a.shape != args[0].shape for a in args):
            return None
        return BINARY[op](*args)
    if op == "compare":
        if "TOTALORDER" in attrs:
            return None
        d = re.search(r"direction=(\w+)", attrs).group(1)
        return COMPARE[d](*args)
    if op == "select":
        p, a, b = args
        return lax.select(jnp.broadcast_to(p, a.shape), a, b)
    if op == "clamp":
        return lax.clamp(*args)
    if op == "convert":
        return lax.convert_element_type(args[0], h.DTYPE[rtype])
    if op == "bitcast-convert":
        if len(args[0].shape) != 1 or "," in root.split("[")[1].split("]")[0]:
            return None
        return lax.bitcast_convert_type(args[0], h.DTYPE[rtype])
    if op == "reduce-precision":
        e = int(re.search(r"exponent_bits=(-?\d+)", attrs).group(1))
        mb = int(re.search(r"mantissa_bits=(-?\d+)", attrs).group(1))
        return lax.reduce_precision(args[0], e, mb)
    return None


def ulps(t, a, b):
    if t in ("c64", "c128"):
        t = "f32" if t == "c64" else "f64"
    x = np.array([a], dtype=h.DTYPE[t])
    y = np.array([b], dtype=h.DTYPE[t])
    n = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[x.itemsize]
    xi, yi = int(x.view(n)[0]), int(y.view(n)[0])
    sign = 1 << (8 * x.itemsize - 1)
    key = lambda v: v if v >= 0 else -(v & (sign - 1))  # noqa: E731
    return abs(key(xi) - key(yi))


def differences(case, got):
    t, want = parse_literal(case["expect"])
    got = np.asarray(got)
    out = []
    wf, gf = want.reshape(-1), got.reshape(-1)
    if t in h.COMPLEX:
        wf = np.stack([wf.real, wf.imag], -1).reshape(-1)
        gf = np.stack([gf.real, gf.imag], -1).reshape(-1)
    op = re.search(r"ROOT r = \S+ ([\w-]+)\(", case["module"]).group(1)
    tol = ULPS.get(op, 0)
    for i, (w, g) in enumerate(zip(wf, gf)):
        if t == "pred" or t in h.INTS:
            if int(w) != int(g):
                out.append((i, w, g, None))
            continue
        w, g = float(w), float(g)
        if math.isnan(w) and math.isnan(g):
            continue
        if math.isnan(w) or math.isnan(g):
            out.append((i, w, g, None))
            continue
        if w == g and math.copysign(1, w) == math.copysign(1, g):
            continue
        d = ulps(t, w, g)
        if d > tol:
            out.append((i, w, g, d))
    return out


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(
        h.SUITE, "elementwise", "*.hlotest")))
    checked = skipped = 0
    for path in files:
        for case in parse_cases(path):
            if "expect" not in case:
                continue
            try:
                got = run_jax(case)
            except Exception as e:  # a type or op jax does not take
                skipped += 1
                continue
            if got is None:
                skipped += 1
                continue
            checked += 1
            diffs = differences(case, got)
            if diffs:
                args = "; ".join(case["args"])
                print("%s: %d differ, e.g. element %d: expected %r, XLA %r%s"
                      "\n    args %s" % (
                          case["name"], len(diffs), diffs[0][0], diffs[0][1],
                          diffs[0][2], "" if diffs[0][3] is None else
                          " (%d ulp)" % diffs[0][3], args[:200]))
    print("checked %d cases against XLA, %d skipped" % (checked, skipped))


if __name__ == "__main__":
    main()
