"""Helpers of the linalg, convolution, random, collectives and io generators
(gen_linalg.py, gen_convolution.py, gen_random.py, gen_collectives.py,
gen_io.py), on top of hlotest.py.

Expected values never come from Kiln. `reject_rule` runs `kiln verify` on a
module that must be refused only to copy the rule text Kiln prints into the
case (the rule a reject case names); it never produces an expected value.
"""
import os
import re
import subprocess
import tempfile

import numpy as np

import hlotest as H

KILN = os.environ.get(
    "KILN", os.path.join(os.path.dirname(H.SUITE), "bazel-bin/tools/kiln"))


def lit(t, arr):
    """HLO literal text of numpy array `arr` (any shape) as type t."""
    a = np.asarray(arr)
    flat = [v for v in a.reshape(-1)]
    if a.ndim == 0:
        return H.literal(t, flat[0])
    return H.literal(t, flat, list(a.shape))


def tuple_lit(parts):
    return "(" + ", ".join(parts) + ")"


def shape(t, dims):
    return H.shape_text(t, list(dims))


def all_representable(t, values):
    """Every value of the iterable is exactly a value of type t."""
    for v in np.asarray(values).reshape(-1):
        if H.is_complex(t):
            c = complex(v)
            part = "f32" if t == "c64" else "f64"
            if not (H.representable(part, c.real)
                    and H.representable(part, c.imag)):
                return False
        elif H.is_int(t):
            lo, hi = H.int_range(t)
            if not (lo <= int(v) <= hi) or int(v) != v:
                return False
        elif t == "pred":
            if v not in (0, 1, True, False):
                return False
        elif not H.representable(t, float(v)):
            return False
    return True


def core_message(stderr, prefer=None):
    """`FILE:L:C: error: NAME: MESSAGE (TAG)` -> MESSAGE's lead (up to the
    first ':'), the part that names the rule broken; of the first error, or
    of the first one containing `prefer`."""
    lines = [l for l in stderr.strip().split("\n") if ": error: " in l]
    if prefer:
        lines = [l for l in lines if prefer in l]
    line = lines[0]
    m = re.match(r"^.*?: error: (?:[\w.\-]+: )?(.*)$", line)
    text = m.group(1) if m else line
    text = re.sub(r" \([^()]*\)$", "", text)
    return text.split(": ")[0].strip()


def reject_rule(module_text, prefer=None):
    """Runs `kiln verify` on the module; returns the lead of the first error
    message (the rule text a reject case names). Raises if it verifies."""
    with tempfile.NamedTemporaryFile("w", suffix=".hlo", delete=False) as f:
        f.write(module_text)
        path = f.name
    try:
        p = subprocess.run([KILN, "verify", path], capture_output=True,
                           text=True)
    finally:
        os.unlink(path)
    if p.returncode == 0:
        raise ValueError("module verifies, expected a rejection:\n" +
                         module_text)
    return core_message(p.stderr, prefer)


def reject_case(name, spec, module_text, note=None, prefer=None):
    return H.Case(name, spec, "hand", module_text,
                  reject="verify " + reject_rule(module_text, prefer),
                  note=note)


def entry(params, body, root, extra_comps=""):
    """Module text: params is a list of shape texts (p0, p1, ...), body a
    list of instruction lines, root the ROOT line's right-hand side."""
    lines = ["HloModule m", ""] if extra_comps else ["HloModule m"]
    if extra_comps:
        lines = ["HloModule m", extra_comps.strip("\n"), ""]
    lines.append("ENTRY e {")
    for i, p in enumerate(params):
        lines.append("  p%d = %s parameter(%d)" % (i, p, i))
    lines.extend("  " + l for l in body)
    lines.append("  ROOT r = " + root)
    lines.append("}")
    return "\n".join(lines)


def pick_data(t, candidates, compute):
    """The first candidate (a tuple of numpy arrays) whose inputs and exact
    results (compute(*candidate), an array or tuple of arrays) are all
    values of type t; None if none fits."""
    for cand in candidates:
        out = compute(*cand)
        outs = out if isinstance(out, tuple) else (out,)
        if all(all_representable(t, a) for a in cand) and all(
                all_representable(t, o) for o in outs):
            return cand, out
    return None


class DeviceCase(H.Case):
    """A case run on replicas x partitions devices. dev_args: one list of
    argument literals per device (or None: `args` for every device);
    dev_expects: one expected literal per device (collapsed to a single
    `expect:` when all are equal)."""

    def __init__(self, name, spec, source, module, replicas, partitions=1,
                 dev_args=None, dev_expects=None, **kw):
        if dev_expects is not None:
            same = all(e == dev_expects[0] for e in dev_expects)
            kw["expect"] = dev_expects[0] if same else "per-device"
            self.dev_expects = None if same else list(dev_expects)
        else:
            self.dev_expects = None
        super().__init__(name, spec, source, module, **kw)
        self.replicas = replicas
        self.partitions = partitions
        self.dev_args = dev_args
        n = replicas * partitions
        assert dev_args is None or len(dev_args) == n, name
        assert self.dev_expects is None or len(self.dev_expects) == n, name

    def text(self):
        lines = super().text().rstrip("\n").split("\n")
        out = []
        for line in lines:
            if line.startswith("expect: per-device"):
                out.extend("expect[%d]: %s" % (d, e)
                           for d, e in enumerate(self.dev_expects))
                continue
            out.append(line)
            if line.startswith("source: "):
                out.append("replicas: %d" % self.replicas)
                if self.partitions != 1:
                    out.append("partitions: %d" % self.partitions)
            if line.startswith("module:"):
                pass
        if self.dev_args is not None:
            # Arguments go right after the module block.
            end = max(i for i, l in enumerate(out) if l.startswith("  ")) + 1
            args = ["arg[%d]: %s" % (d, a)
                    for d, dev in enumerate(self.dev_args) for a in dev]
            out = out[:end] + args + out[end:]
        return "\n".join(out) + "\n"


def device_module(replicas, partitions, params, body, root, comps=""):
    """Like entry(), with replica_count/num_partitions in the header."""
    text = entry(params, body, root, comps)
    header = "HloModule m, replica_count=%d" % replicas
    if partitions != 1:
        header += ", num_partitions=%d" % partitions
    return text.replace("HloModule m", header, 1)


def binary_comp(name, t, op):
    return ("%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n"
            "  ROOT c = %s[] %s(a, b)\n}" % (name, t, t, t, op))
