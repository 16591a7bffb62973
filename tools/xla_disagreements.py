#!/usr/bin/env python3
"""Gives each xfail of spec_tests/expectations/pjrt-xla-cpu.txt its cause.

Usage: xla_disagreements.py REPORT.json EXPECTATIONS.txt

Reads a `kiln conform --report` run of XLA's CPU plugin and rewrites the
reason of every `xfail CASE:` line of EXPECTATIONS (as written by
--update_expectations) with the cause of the disagreement (and of every
`unsupported CASE:` line with Kiln's words for it, without the plugin's
log lines): the known XLA
behaviours of docs/choices.md and spec_tests/gen/README.md ("Where XLA
disagrees") are recognized from the case and its values; anything else
keeps the first line of its failure, marked "unclassified". Idempotent.
tools/scoreboard.py runs it after each XLA run.
"""

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_README = "spec_tests/gen/README.md, Where XLA disagrees"
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?", re.IGNORECASE)
# Smallest normal magnitudes: XLA:CPU runs with denormals flushed (FTZ and
# DAZ), for f32 and the types it computes in f32, and for f64.
_F32_TYPES = {"f32", "bf16", "c64", "f8e8m0fnu"}
_F64_TYPES = {"f64", "c128"}


def case_text(case):
    """The lines of the case's block in its .hlotest file."""
    try:
        with open(os.path.join(ROOT, case["file"]), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    block = []
    for line in lines[case["line"] - 1:]:
        if block and not line.strip():
            break
        block.append(line)
    return "\n".join(block)


def has_subnormal(case, text):
    values = []
    for line in text.splitlines() + case.get("message", "").splitlines():
        stripped = line.strip()
        if stripped.startswith(("arg", "expect", "expected", "actual")):
            for token in _NUMBER.findall(stripped.split(" ", 1)[-1]):
                try:
                    values.append(abs(float(token)))
                except ValueError:
                    pass
    types = set(case.get("types", []))
    tiny = []
    if types & _F32_TYPES:
        tiny.append(1.1754943508222875e-38)
    if types & _F64_TYPES:
        tiny.append(2.2250738585072014e-308)
    return any(0 < v < limit for v in values for limit in tiny)


def first_line(message):
    for line in message.splitlines():
        line = line.strip()
        if line and line != "wrong result":
            return line[:160]
    return "failed"


def classify(case):
    """The cause of one XLA failure, in a line."""
    name = case["name"]
    message = case.get("message", "")
    if "crashed (signal" in message:
        check = re.search(r"\] (Check failed: [^\n]*)", message)
        where = re.search(r"(\w+\.cc):\d+\] Check failed", message)
        detail = (f": {where.group(1)}: {check.group(1).strip()[:110]}"
                  if check and where else "")
        return ("XLA's CPU compiler aborts on this module (needs --isolate)"
                + detail)
    if "timed out" in message or "time limit" in message:
        if name.startswith("outfeed."):
            return ("hangs: XLA's outfeed waits for a host consumer, and "
                    "the PJRT C API has none")
        return "runs past the time limit on XLA's CPU plugin"
    if "Reshape operation has mismatched element counts" in message:
        return ("XLA's StableHLO import turns a bounded dynamic_reshape into "
                "a static reshape to the bounds and refuses it (Kiln now "
                "exports the gather form; docs/stablehlo.md)")
    if "Inputs must have the same shape" in message and name.startswith(
            "topk."):
        return ("XLA's CPU compiler refuses a sort of 2-bit values beside "
                "their s32 indices (topk exports as that sort): its sub-byte "
                "layouts make the operand shapes differ")
    plugin = re.search(r"pjrt: (compile|execute|transfer[^:]*): (.*)",
                       message)
    if plugin:
        return (f"XLA's CPU plugin refuses it ({plugin.group(1)}): "
                f"{plugin.group(2).splitlines()[0][:140]}")
    if "double_rounding" in name:
        return ("convert rounds twice, through f32 (docs/choices.md, Double "
                "rounding)")
    if name.startswith("scatter.") and "out_of_bounds" in name:
        return ("XLA skips a scatter window partly out of bounds; the spec "
                "updates its valid elements (docs/choices.md)")
    if re.match(r"convert\.f4e2m1fn\.[su]\d+", name):
        return f"f4e2m1fn +-6 converts to saturated integers ({_README}, 3)"
    if name.startswith("popcnt.s4"):
        return f"popcnt on s4 counts the bits of the 8-bit storage ({_README}, 4)"
    if name.startswith("logistic.f8"):
        return ("logistic on a float8 type without inf gives NaN for large "
                f"|x| ({_README}, 5)")
    if name.startswith("sqrt.f8e3m4"):
        return f"sqrt on f8e3m4 rounds twice, through f16 ({_README}, 6)"
    text = case_text(case)
    if ("subnormal" in name or "extremes" in name or
            has_subnormal(case, text)):
        return ("XLA:CPU flushes subnormal inputs and results to zero "
                "(docs/choices.md, Subnormals)")
    op = name.split(".")[0]
    if (op in ("clamp", "maximum", "minimum", "reduce", "reduce-window",
               "select-and-scatter") and "NaN vs number" in message):
        return ("XLA:CPU's maximum/minimum do not propagate a NaN operand in "
                "this position; the spec's do")
    if op in ("reduce", "reduce-window") and "init" in name:
        return ("XLA assumes the init value is the reducer's identity (it "
                "drops it where the spec applies it, e.g. one-element "
                "windows or padding)")
    if name.startswith("rng.") and "uniform" in name:
        return ("XLA's uniform rng returns values outside [a, b) when b - a "
                "is one ULP")
    if re.search(r"expected -0, actual 0\b", message):
        return "XLA gives +0 where the spec's value is -0 (signed zero)"
    types = set(case.get("types", []))
    if types & {"s2", "u2"} and "wrong result" in message:
        return ("XLA:CPU gets 2-bit integer (s2/u2) values wrong here "
                "(sub-byte packing)")
    if "totalorder" in name and "fnuz" in name:
        return ("XLA's total order places the single NaN of an fnuz type "
                "(the negative-zero pattern) before the negative numbers")
    if op in ("abs", "batch-norm-grad", "batch-norm-inference",
              "batch-norm-training", "fft") and "wrong result" in message:
        return ("rounding beyond the case's tolerance (XLA's arithmetic "
                "order or formula differs from the correctly rounded value)")
    if name.startswith("cosh.") and "range" in name:
        return f"cosh near overflow is off by more than the tolerance ({_README}, 7)"
    return f"unclassified: {first_line(message)}"


def unsupported_reason(case):
    """Why the case is unsupported: Kiln's own words, without the plugin's
    log lines that an isolated run's stderr carries."""
    message = case.get("message", "")
    words = re.findall(r"(?:kiln run: |error: )(.*)", message)
    reason = words[-1] if words else first_line(message)
    return reason.strip()[:200]


def annotate(report, expectations_path):
    cases = {c["name"]: c for c in report["cases"]}
    with open(expectations_path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        match = re.match(r"xfail (\S+):", line)
        if match and match.group(1) in cases:
            line = f"xfail {match.group(1)}: {classify(cases[match.group(1)])}"
        match = re.match(r"unsupported ([^=\s]+):", line)
        if match and match.group(1) in cases:
            line = (f"unsupported {match.group(1)}: "
                    f"{unsupported_reason(cases[match.group(1)])}")
        out.append(line)
    with open(expectations_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        report = json.load(f)
    annotate(report, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
