"""Shared helpers of the spec_tests generators: element types, HLO literal
text, spec-fragment checks and the .hlotest writer.

Expected values are computed here with numpy, ml_dtypes and mpmath only;
nothing in this directory runs or imports Kiln.
"""
import math
import os
import re

import ml_dtypes
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
SPEC = os.environ.get(
    "KILN_SPEC", "/work/shared/spec/operation_semantics.md")

# --- element types -------------------------------------------------------

SIGNED = ["s1", "s2", "s4", "s8", "s16", "s32", "s64"]
UNSIGNED = ["u1", "u2", "u4", "u8", "u16", "u32", "u64"]
INTS = SIGNED + UNSIGNED
# IEEE-like types with inf and NaN, then the "fn"/"fnuz" families.
WIDE_FLOATS = ["f16", "bf16", "f32", "f64"]
F8_IEEE = ["f8e5m2", "f8e4m3", "f8e3m4"]
F8_FN = ["f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz"]
SUB8 = ["f6e3m2fn", "f6e2m3fn", "f4e2m1fn"]
E8M0 = ["f8e8m0fnu"]
FLOATS = WIDE_FLOATS + F8_IEEE + F8_FN + SUB8 + E8M0
SIGNED_FLOATS = WIDE_FLOATS + F8_IEEE + F8_FN + SUB8  # all but f8e8m0fnu
COMPLEX = ["c64", "c128"]
ALL = ["pred"] + INTS + FLOATS + COMPLEX

DTYPE = {
    "pred": np.bool_,
    "s1": ml_dtypes.int1, "s2": ml_dtypes.int2, "s4": ml_dtypes.int4,
    "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
    "u1": ml_dtypes.uint1, "u2": ml_dtypes.uint2, "u4": ml_dtypes.uint4,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32,
    "f64": np.float64,
    "f8e5m2": ml_dtypes.float8_e5m2, "f8e4m3": ml_dtypes.float8_e4m3,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn,
    "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "f8e3m4": ml_dtypes.float8_e3m4,
    "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "f8e8m0fnu": ml_dtypes.float8_e8m0fnu,
    "f6e3m2fn": ml_dtypes.float6_e3m2fn, "f6e2m3fn": ml_dtypes.float6_e2m3fn,
    "f4e2m1fn": ml_dtypes.float4_e2m1fn,
    "c64": np.complex64, "c128": np.complex128,
}

BITS = {"pred": 8, "c64": 64, "c128": 128}
for _t in INTS:
    BITS[_t] = int(_t[1:])
for _t in FLOATS:
    BITS[_t] = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}.get(
        _t, int(_t[1]) if _t[1] in "468" else None)


def is_int(t):
    return t in INTS


def is_signed(t):
    return t in SIGNED


def is_float(t):
    return t in FLOATS


def is_complex(t):
    return t in COMPLEX


def has_inf(t):
    return t in WIDE_FLOATS + F8_IEEE


def has_nan(t):
    return t in FLOATS and t not in SUB8


def has_neg_zero(t):
    return t in WIDE_FLOATS + F8_IEEE + ["f8e4m3fn"] + SUB8


def finfo(t):
    return ml_dtypes.finfo(DTYPE[t])


def int_range(t):
    b = BITS[t]
    if is_signed(t):
        return -(1 << (b - 1)), (1 << (b - 1)) - 1
    return 0, (1 << b) - 1


def wrap(t, v):
    """Two's complement wrap-around of integer v into type t."""
    b = BITS[t]
    v &= (1 << b) - 1
    if is_signed(t) and v >= 1 << (b - 1):
        v -= 1 << b
    return v


_GRIDS = {}


def _grid(t):
    """Sorted finite non-negative values of narrow float type t and their
    bit patterns (all exactly doubles)."""
    if t not in _GRIDS:
        n = 1 << BITS[t] if BITS[t] <= 8 else 1 << 16
        raw = np.arange(n, dtype=np.uint16 if n > 256 else np.uint8)
        if BITS[t] < 8:
            raw = raw.astype(np.uint8)
        if BITS[t] < 8:
            # Sub-byte types: enumerate through their float32 images.
            vals = np.array(sorted({float(x) for x in np.arange(
                -64.0, 64.0, 1.0 / 256).astype(DTYPE[t])}))
            pos = [(abs(float(v)), None) for v in vals if v >= 0]
        else:
            with np.errstate(invalid="ignore"):
                f = raw.view(DTYPE[t]).astype(np.float64)
            pos = sorted((float(v), int(p)) for v, p in zip(f, raw)
                         if np.isfinite(v) and v >= 0 and not (
                             v == 0 and np.signbit(v)))
        _GRIDS[t] = pos
    return _GRIDS[t]


def round_narrow(t, x):
    """Correctly rounded (nearest, ties to even) double x -> narrow float
    type t, as a double; None when it overflows a type without inf.
    (ml_dtypes converts double through float32 and so rounds twice.)"""
    from fractions import Fraction
    import bisect
    if math.isnan(x):
        return x  # keeps the sign
    grid = _grid(t)
    vals = [g[0] for g in grid]
    a = abs(x)
    sign = -1.0 if math.copysign(1, x) < 0 else 1.0
    top = vals[-1]
    if a > top:
        if math.isinf(a):
            return x if has_inf(t) else None
        step = top - vals[-2]
        if has_inf(t) and Fraction(a) >= Fraction(top) + Fraction(step) / 2:
            return sign * float("inf")
        if not has_inf(t):
            return None
        return sign * top
    i = bisect.bisect_left(vals, a)
    if i == 0:
        r = vals[0]
    elif vals[i] == a:
        r = a
    else:
        lo, hi = vals[i - 1], vals[i]
        dl, dh = Fraction(a) - Fraction(lo), Fraction(hi) - Fraction(a)
        if dl < dh:
            r = lo
        elif dh < dl:
            r = hi
        else:  # tie: the even one (its last significand bit is 0)
            r = lo if (i - 1) % 2 == 0 else hi
    if r == 0 and sign < 0 and not has_neg_zero(t):
        return 0.0
    return sign * r


def to_type(t, v):
    """Rounds a number to element type t (round to nearest, ties to even)."""
    if is_complex(t):
        return DTYPE[t](v)
    if t in ("f16", "f32", "f64") or not is_float(t):
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array([v], dtype=np.float64).astype(DTYPE[t])[0]
    r = round_narrow(t, float(v))
    if r is None:
        return DTYPE[t](float("nan")) if has_nan(t) else DTYPE[t](0)
    return DTYPE[t](r)


def representable(t, v):
    """v (a float) is exactly a value of float type t."""
    if isinstance(v, float) and math.isnan(v):
        return has_nan(t)
    if isinstance(v, float) and math.isinf(v):
        return has_inf(t)
    x = float(to_type(t, v))
    if math.isnan(x):
        return False
    if v == 0 and math.copysign(1, v) < 0 and not has_neg_zero(t):
        return False
    return x == v


def bits_of(t, v):
    a = np.array([v], dtype=DTYPE[t])
    return a.tobytes()


# --- literal text --------------------------------------------------------


def fmt_float(t, v):
    """Shortest text that reads back (via a double, rounded to t) to the
    same value; nan/inf/-0 spelled as the HLO text format does."""
    x = float(v)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    if t == "f64":
        return repr(x) if "e" in repr(x) or "." not in repr(x) else (
            repr(x)[:-2] if repr(x).endswith(".0") else repr(x))
    if BITS[t] <= 8:
        # Narrow types: the exact decimal (short, and unambiguous).
        s = repr(x)
        return s[:-2] if s.endswith(".0") else s
    want = bits_of(t, to_type(t, x))
    limit = float(finfo(t).max)
    # Small integers and short decimals read best as written ("90", not
    # "9e+01"): use the double's own shortest text when it is short.
    plain = repr(x)[:-2] if repr(x).endswith(".0") else repr(x)
    if len(plain) <= 7 and "e" not in plain and bits_of(
            t, to_type(t, float(plain))) == want:
        return plain
    for n in range(1, 18):
        s = "%.*g" % (n, x)
        # Never text beyond the type's range (the HLO text format refuses
        # it unless it rounds to the largest finite value).
        if abs(float(s)) > limit:
            continue
        if bits_of(t, to_type(t, float(s))) == want:
            return s
    raise ValueError((t, x))


def fmt_value(t, v):
    if t == "pred":
        return "true" if bool(v) else "false"
    if is_int(t):
        return str(int(v))
    if is_complex(t):
        part = "f32" if t == "c64" else "f64"
        c = complex(v)
        return "(%s, %s)" % (fmt_float(part, c.real), fmt_float(part, c.imag))
    return fmt_float(t, v)


def shape_text(t, dims):
    return "%s[%s]" % (t, ",".join(str(d) for d in dims))


def nest(t, dims, flat):
    if not dims:
        return fmt_value(t, flat[0])
    if len(dims) == 1:
        return "{" + ", ".join(fmt_value(t, v) for v in flat) + "}"
    step = len(flat) // dims[0] if dims[0] else 0
    parts = [nest(t, dims[1:], flat[i * step:(i + 1) * step])
             for i in range(dims[0])]
    return "{ " + ", ".join(parts) + " }"


def literal(t, values, dims=None):
    """HLO literal text `t[dims] {...}`; values is a flat list (row-major)
    or a scalar (then dims defaults to [])."""
    if not isinstance(values, (list, tuple)):
        dims = [] if dims is None else dims
        return "%s %s" % (shape_text(t, dims), fmt_value(t, values))
    if dims is None:
        dims = [len(values)]
    return "%s %s" % (shape_text(t, dims), nest(t, dims, list(values)))


# --- spec fragments ------------------------------------------------------

_SECTIONS = None


def sections():
    """Section title -> list of its raw lines (up to the next heading of any
    level)."""
    global _SECTIONS
    if _SECTIONS is None:
        _SECTIONS = {}
        title = None
        for line in open(SPEC, encoding="utf-8"):
            m = re.match(r"^#{2,6} (.*?)\s*$", line)
            if m:
                title = m.group(1)
                _SECTIONS.setdefault(title, [])
                continue
            if title is not None:
                _SECTIONS[title].append(line.rstrip("\n"))
    return _SECTIONS


def check_spec(tag):
    title, frag = [s.strip() for s in tag.split("::", 1)]
    lines = sections().get(title)
    if lines is None:
        raise ValueError("no spec section %r" % title)
    # As `kiln conform` checks it: the fragment occurs in the section's
    # text (its subsections included) with whitespace collapsed, verbatim
    # or with the markup (` * | [ ]) removed on both sides.
    text = collapse(" ".join(section_with_children(title)))
    if collapse(frag) in text or strip_markup(frag) in strip_markup(text):
        return tag
    raise ValueError("fragment not in section %r: %r" % (title, frag))


def collapse(text):
    return " ".join(text.split())


def strip_markup(text):
    text = re.sub(r"\]\([^)]*\)", "", text)
    return collapse(re.sub(r"[`*|\[]", "", text))


def section_with_children(title):
    """Lines of the section titled `title` and of its subsections."""
    out, inside, level = [], False, 0
    fence = False
    for line in open(SPEC, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"^(#{1,6}) (.*?)\s*$", line)
        if m:
            if inside and len(m.group(1)) <= level:
                break
            if m.group(2) == title and not inside:
                inside, level = True, len(m.group(1))
                continue
        if inside:
            out.append(line)
    return out


# --- cases and files -----------------------------------------------------

_NAMES = set()


class Case:
    def __init__(self, name, spec, source, module, args=(), expect=None,
                 reject=None, impl=None, tolerance=None, note=None,
                 types=None):
        if not re.match(r"^[A-Za-z0-9_.+-]+$", name):
            raise ValueError("bad case name %r" % name)
        if name in _NAMES:
            raise ValueError("duplicate case name %r" % name)
        _NAMES.add(name)
        self.name = name
        self.spec = [check_spec(s) for s in (
            spec if isinstance(spec, (list, tuple)) else [spec])]
        self.source = source
        self.module = module
        self.args = list(args)
        self.expect = expect
        self.reject = reject
        self.impl = impl
        self.tolerance = tolerance
        self.note = note
        self.types = types
        assert sum(x is not None for x in (expect, reject, impl)) == 1, name

    def text(self):
        out = ["case " + self.name]
        for s in self.spec:
            out.append("spec: " + s)
        out.append("source: " + self.source)
        if self.types:
            out.append("types: " + self.types)
        if self.note:
            out.append("note: " + self.note)
        out.append("module:")
        out.extend("  " + l for l in self.module.strip("\n").split("\n"))
        for a in self.args:
            out.append("arg: " + a)
        if self.expect is not None:
            out.append("expect: " + self.expect)
        if self.reject is not None:
            out.append("reject: " + self.reject)
        if self.impl is not None:
            out.append("implementation-defined: " + self.impl)
        if self.tolerance:
            out.append("tolerance: " + self.tolerance)
        return "\n".join(out) + "\n"


def write_file(family, stem, op, cases, header_comment, generator):
    path = os.path.join(SUITE, family, stem + ".hlotest")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# Generated by spec_tests/gen/%s; do not edit by hand.\n"
                % generator)
        for line in header_comment.strip().split("\n"):
            f.write("# " + line + "\n" if line else "#\n")
        f.write("suite: %s.%s\n" % (family, stem))
        f.write("op: %s\n\n" % op)
        f.write("\n".join(c.text() for c in cases))
    return path


# --- module text ---------------------------------------------------------


def module(params, root_shape, root_expr, extra=""):
    """params: list of shape texts; root_expr uses p0, p1, ..."""
    lines = ["HloModule m", "ENTRY e {"]
    for i, p in enumerate(params):
        lines.append("  p%d = %s parameter(%d)" % (i, p, i))
    if extra:
        lines.extend("  " + l for l in extra.strip("\n").split("\n"))
    lines.append("  ROOT r = %s %s" % (root_shape, root_expr))
    lines.append("}")
    return "\n".join(lines)


# --- shape variants of an elementwise case --------------------------------


def _split_items(body):
    """Top-level items of a rank-1 literal body "{a, (b, c), d}"."""
    body = body.strip()
    assert body.startswith("{") and body.endswith("}"), body
    inner = body[1:-1]
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        items.append(cur.strip())
    return items


def _relit(text, dims, take=None):
    m = re.match(r"^(\w+)\[(\d+)\]\s*(\{.*\})$", text.strip(), re.S)
    t, body = m.group(1), m.group(3)
    items = _split_items(body)
    if take is not None:
        items = items[:take]
    if not dims:
        return "%s[] %s" % (t, items[0])

    def build(ds, flat):
        if len(ds) == 1:
            return "{" + ", ".join(flat) + "}"
        step = len(flat) // ds[0] if ds[0] else 0
        return "{ " + ", ".join(build(ds[1:], flat[i * step:(i + 1) * step])
                                for i in range(ds[0])) + " }"
    if 0 in dims:
        return "%s %s" % (shape_text(t, dims), "{}" if len(dims) == 1 else
                          "{ %s }" % ", ".join(["{}"] * dims[0])
                          if dims[-1] == 0 else "{  }")
    return "%s %s" % (shape_text(t, dims), build(dims, items))


def shape_variants(case, spec):
    """From a run case whose params and result are all `t[n]` arrays:
    the same op on a scalar (its first elements), on a rank-3 array
    [2, 1, n/2] (n even) and on an empty [0, 3] array. The spec's
    sections speak of arrays of any dimensions."""
    m = re.search(r"\[(\d+)\]", case.args[0])
    n = int(m.group(1))
    out = []
    variants = [("rank0", [], 1), ("empty", [0, 3], 0)]
    if n % 2 == 0 and n >= 2:
        variants.append(("rank3", [2, 1, n // 2], n))
    base = case.name.rsplit(".", 1)[0]
    for label, dims, take in variants:
        dims_text = "[%s]" % ",".join(str(d) for d in dims)
        module = case.module.replace("[%d]" % n, dims_text)
        args = [_relit(a, dims, take if take else None) for a in case.args]
        expect = _relit(case.expect, dims, take if take else None)
        out.append(Case("%s.%s" % (base, label), spec, case.source, module,
                        args=args, expect=expect, tolerance=case.tolerance))
    return out
