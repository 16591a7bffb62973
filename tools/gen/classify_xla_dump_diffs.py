#!/usr/bin/env python3
"""Rewrites compiler/text/xla_dumps/known_failures.txt from a test run.

Reads Kiln's prints that //compiler/text/xla_dumps:xla_print_test leaves in
its undeclared outputs (<dump>.kiln, or <dump>.stripped.kiln when the dump
only parses without its stack frame tables), compares them with XLA's text
and names the kind of every difference (keys explained in the header of the
written file and in tools/gen/README.md). A difference no rule explains is
listed as "other" and printed, so that a new kind is never hidden.

  bazel test //compiler/text/xla_dumps:xla_print_test
  unzip -o -d /tmp/kiln_prints \\
    bazel-testlogs/compiler/text/xla_dumps/xla_print_test/test.outputs/outputs.zip
  python3 tools/gen/classify_xla_dump_diffs.py --kiln /tmp/kiln_prints

Needs numpy and ml_dtypes (the generator venv) to compare narrow float
literals by value; without them they are compared as float32.
"""

import argparse
import glob
import os
import re
import struct
import sys

HEADER = """\
# Dumps that fail a check today, one per line: <file> <parse|print> <reasons>.
# Written by tools/gen/classify_xla_dump_diffs.py. The tests require every
# other dump to pass; a listed dump that passes is reported in the test log
# (then delete its line, or rerun the script). Reason keys:
#   stack-frames  FileNames/FunctionNames/FileLocations/StackFrames tables
#                 after the HloModule line are not accepted.
#   tuple-index   XLA writes /*index=N*/ before every 5th element of a tuple
#                 SHAPE; Kiln prints none.
#   operand-index Short-parsable form: XLA writes no /*index=N*/ in operand
#                 lists; Kiln does.
#   percent-refs  Short-parsable form: computation references (to_apply=,
#                 calls=, body=, branch_computations=...) keep a %.
#   signatures    Short-parsable form: XLA omits "(params) -> result" in
#                 computation headers; Kiln always prints it.
#   float-digits  Float literals: XLA prints %.{digits10}g if that reads back
#                 to the same value, else %.{max_digits10}g (f32, f64), and
#                 always %.{max_digits10}g for 16-bit and narrower types;
#                 Kiln prints the shortest form that reads back.
#   other         Anything else (see the script's output).
"""

INDEX = re.compile(r"/\*index=\d+\*/")
# An index comment in front of a tuple element's shape.
SHAPE_INDEX = re.compile(r"/\*index=\d+\*/(?:\(|[a-z][a-z0-9]*\[)")
NUMBER = re.compile(r"(?<![\w.])-?\d+\.?\d*(?:e[-+]?\d+)?(?![\w.])")
SIGNATURE = re.compile(r"^((?:ENTRY )?%?[\w.\-]+) \(.*\) -> .* \{$", re.M)
STACK_FRAMES = re.compile(r"\n\nFileNames\n.*?\nStackFrames\n.*?\n\n+", re.S)


def xla_text(dump):
  lines = dump.split("\n")
  while lines and lines[0].startswith("//"):
    lines.pop(0)
  return "\n".join(lines).rstrip("\n ") + "\n"


def without_stack_frames(text):
  return STACK_FRAMES.sub("\n\n", text, count=1)


def normalize(text, rules):
  """Removes the differences named in `rules` from one side's text."""
  if "tuple-index" in rules or "operand-index" in rules:
    text = INDEX.sub("", text)
  if "percent-refs" in rules:
    text = re.sub(r"([={,] ?)%(?=[A-Za-z_])", r"\1", text)
  if "signatures" in rules:
    text = SIGNATURE.sub(r"\1 {", text)
  if "float-digits" in rules:
    text = NUMBER.sub(lambda m: repr(float(m.group(0))) if "." in m.group(0)
                      or "e" in m.group(0) else m.group(0), text)
  return text


def _caster(type_name):
  """Rounds a Python float to the named HLO element type (needs ml_dtypes
  for narrow types; without it they compare as float32)."""
  try:
    import ml_dtypes  # pylint: disable=g-import-not-at-top
    import numpy as np  # pylint: disable=g-import-not-at-top
  except ImportError:
    return lambda v: struct.unpack("f", struct.pack("f", v))[0]
  names = {"f64": np.float64, "f32": np.float32, "f16": np.float16,
           "bf16": ml_dtypes.bfloat16, "f8e5m2": ml_dtypes.float8_e5m2,
           "f8e4m3": ml_dtypes.float8_e4m3,
           "f8e4m3fn": ml_dtypes.float8_e4m3fn,
           "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
           "f8e3m4": ml_dtypes.float8_e3m4,
           "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
           "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
           "f8e8m0fnu": ml_dtypes.float8_e8m0fnu,
           "f4e2m1fn": ml_dtypes.float4_e2m1fn}
  dtype = names.get(type_name, np.float64)
  return lambda v: float(np.array(v, np.float64).astype(dtype))


def float_tokens_agree(xla, kiln):
  """True if every differing line differs only in how float literals are
  spelled: each pair of literals names the same value of the constant's
  element type (or of f64 where the line has no constant)."""
  lines_x, lines_k = xla.split("\n"), kiln.split("\n")
  if len(lines_x) != len(lines_k):
    return False
  for a, b in zip(lines_x, lines_k):
    if a == b:
      continue
    if NUMBER.split(a) != NUMBER.split(b):
      return False
    match = re.search(r"= (\w+)\[[^=]*constant\(", a)
    cast = _caster(match.group(1) if match else "f64")
    for p, q in zip(NUMBER.findall(a), NUMBER.findall(b)):
      if p != q and cast(float(p)) != cast(float(q)):
        return False
  return True


def classify(xla, kiln, short):
  """Reasons that explain every difference between xla and kiln."""
  reasons = []
  if len(SHAPE_INDEX.findall(xla)) != len(SHAPE_INDEX.findall(kiln)):
    reasons.append("tuple-index")
  if short and re.search(r"/\*index=\d+\*/%?[A-Za-z_][\w.\-]*[,)]", kiln):
    reasons.append("operand-index")
  if short and re.search(r"[={,] ?%[A-Za-z_]", kiln):
    reasons.append("percent-refs")
  if short and SIGNATURE.search(kiln) and not SIGNATURE.search(xla):
    reasons.append("signatures")
  x, k = normalize(xla, set(reasons)), normalize(kiln, set(reasons))
  if x != k:
    if float_tokens_agree(x, k):
      reasons.append("float-digits")
    else:
      reasons.append("other")
  return reasons


def first_other_difference(xla, kiln):
  for a, b in zip(xla.split("\n"), kiln.split("\n")):
    if a != b:
      return f"  xla:  {a[:200]}\n  kiln: {b[:200]}"
  return "  (line counts differ)"


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--kiln", required=True,
                      help="folder with the test's <dump>.kiln prints")
  parser.add_argument("--dumps", default="compiler/text/xla_dumps")
  args = parser.parse_args()
  parse_lines, print_lines = [], []
  for path in sorted(glob.glob(os.path.join(args.dumps, "*.hlo"))):
    name = os.path.basename(path)
    xla = xla_text(open(path).read())
    reasons = []
    kiln_path = os.path.join(args.kiln, name + ".kiln")
    if not os.path.exists(kiln_path):
      kiln_path = os.path.join(args.kiln, name + ".stripped.kiln")
      if not os.path.exists(kiln_path):
        sys.exit(f"no Kiln print for {name} under {args.kiln}")
      parse_lines.append(f"{name} parse stack-frames")
      reasons.append("stack-frames")
      xla = without_stack_frames(xla)
    kiln = open(kiln_path).read()
    if kiln == xla and not reasons:
      continue
    short = "\nENTRY %" not in xla
    more = classify(xla, kiln, short) if kiln != xla else []
    if "other" in more:
      print(f"{name}: unexplained difference\n"
            f"{first_other_difference(normalize(xla, set(more)), normalize(kiln, set(more)))}")
    print_lines.append(f"{name} print {' '.join(reasons + more)}")
  out = os.path.join(args.dumps, "known_failures.txt")
  with open(out, "w") as f:
    f.write(HEADER + "\n".join(parse_lines + print_lines) + "\n")
  print(f"wrote {out}: {len(parse_lines)} parse, {len(print_lines)} print")


if __name__ == "__main__":
  main()
